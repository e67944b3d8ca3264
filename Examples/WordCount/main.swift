import Dispatch
import Foundation
import Vow

func time(_ label: String, _ body: () throws -> Void) rethrows {
    let t = DispatchTime.now().uptimeNanoseconds
    try body()
    print(label, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6, "ms")
}
let (root, resolver) = Promise<Int>.pending()
nonisolated(unsafe) var tail = root.map(on: nil) { $0 }
time("build") { for _ in 0..<1_000_000 { tail = tail.map(on: nil) { $0 + 1 } } }
time("resolve") { resolver.fulfill(0) }
print("deep:", try tail.wait())
time("dealloc") { tail = Promise.value(0) }
let q = DispatchQueue(label: "x", attributes: .concurrent)
time("1M concurrent sync") { for _ in 0..<1_000_000 { q.sync {} } }
time("1M barrier sync") { for _ in 0..<1_000_000 { q.sync(flags: .barrier) {} } }
