// The service and view controller of AsyncNinja's "Moving to nice asynchronous Swift", with Vow.
//
// `MyService` is an actor: its cache is touched only on the actor, by handlers bound to it.
// `MyViewController` is a `@MainActor` class: its handlers run on the main actor because they
// were written there. Neither writes `[weak self]` or dispatches by hand: a handler bound to an
// owner gets the owner strongly when it runs, while the chain holds it weakly, and once the
// owner is gone its handlers are skipped. So a controller dismissed while its request is in
// flight is freed at once, and nothing is presented for it.
//
//     swift run personservice
import Foundation
import Vow

struct Person: Decodable, Sendable {
    let name: String
    let born: Int
}

/// The model's entry point. People come from a folder of JSON files, the stand-in for the
/// network or the disk, read on a background queue; those fetched are kept in memory.
actor MyService {
    private let folder: URL
    private var cache: [String: Person] = [:]
    private(set) var fetches = 0

    init(folder: URL) {
        self.folder = folder
    }

    /// The person with `identifier`, or `nil` if there is none. Callable from anywhere, without
    /// `await`: the work that touches the cache runs on the actor.
    nonisolated func person(identifier: String) -> Promise<Person?> {
        firstly(owner: self) { service in
            if let cached = service.cache[identifier] {
                return Promise<Person?>.value(cached)
            }
            return service.fetch(identifier).map(owner: service) { service, person in
                service.fetches += 1
                service.cache[identifier] = person
                return person
            }
        }
    }

    private func fetch(_ identifier: String) -> Promise<Person?> {
        let file = folder.appendingPathComponent("\(identifier).json")
        return DispatchQueue.global().async(.promise) {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try JSONDecoder().decode(Person.self, from: Data(contentsOf: file))
        }
    }
}

/// What the user sees; it outlives the controllers that write to it.
@MainActor final class Screen {
    private(set) var lines: [String] = []

    func show(_ line: String) {
        lines.append(line)
        print(line)
    }
}

@MainActor final class MyViewController {
    let service: MyService
    let screen: Screen

    init(service: MyService, screen: Screen) {
        self.service = service
        self.screen = screen
    }

    /// Presents the person with `identifier`, or the error; the finalizer ends once either has
    /// been presented, or skipped because the controller is gone.
    func present(personWithID identifier: String) -> Finalizer {
        service.person(identifier: identifier).done(owner: self) { controller, person in
            controller.present(person: person, identifier: identifier)
        }.catch(owner: self) { controller, error in
            controller.screen.show("could not load \(identifier): \(error)")
        }
    }

    private func present(person: Person?, identifier: String) {
        guard let person else { return screen.show("nobody is called \(identifier)") }
        screen.show("\(person.name), born \(person.born)")
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vow-people-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
try Data(#"{"name": "Ada Lovelace", "born": 1815}"#.utf8).write(to: folder.appendingPathComponent("ada.json"))
try Data(#"{"name": "Grace Hopper", "born": 1906}"#.utf8).write(
    to: folder.appendingPathComponent("grace.json"))
try Data("not json".utf8).write(to: folder.appendingPathComponent("broken.json"))

let service = MyService(folder: folder)
let screen = Screen()
let controller = MyViewController(service: service, screen: screen)

hang(controller.present(personWithID: "ada"))
hang(controller.present(personWithID: "ada"))
hang(controller.present(personWithID: "nobody"))
hang(controller.present(personWithID: "broken"))

// A controller dismissed while its request is in flight: freed at once, and its handlers are
// skipped when the person arrives, though the service still caches it.
var dismissed: MyViewController? = MyViewController(service: service, screen: screen)
let request = dismissed!.present(personWithID: "grace")
weak var released = dismissed
dismissed = nil
print(released == nil ? "the dismissed controller was freed at once" : "the request kept the controller")
hang(request)

let shown = screen.lines.count
let fetches = hang(Guarantee { await service.fetches })
print("\(shown) lines shown; \(fetches) fetches for 4 people asked for 5 times")
if shown != 4 || fetches != 3 || released != nil {
    print("unexpected: the example did not behave as its comments say")
    exit(1)
}
