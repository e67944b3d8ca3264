// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Each stand-in is named for what it stands for, and public only so that the samples see it.)
//
// The names that the documentation's samples borrow from a reader's own code: a user, a feed,
// a network call, a screen. Scripts/check-code-blocks compiles every sample against these, so
// that a sample is checked against Vow's real API without showing scaffolding a reader does
// not need. Each stand-in does the least that keeps a sample meaningful; the ones a run sample
// calls do real, local work.

@_exported import Foundation
@_exported import Vow
@_exported import VowFoundation

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

// MARK: - Values

public struct User: Sendable, Equatable {
    public var id: Int
    public var name: String
    public var isActive: Bool
    public init(id: Int, name: String, isActive: Bool) {
        self.id = id
        self.name = name
        self.isActive = isActive
    }
}

public struct Person: Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}
public struct Profile: Sendable, Decodable {
    public var name: String
    public init(name: String) { self.name = name }
}
public struct Settings: Sendable {
    public var theme = "dark"
    public init(contentsOf url: URL) throws {}
}
public struct Story: Sendable, Decodable { public var title: String }
public struct Feed: Sendable, Decodable {
    public var items: [Story]
    public var count: Int { items.count }
}
public struct Report: Sendable {
    public init(parsing data: Data) throws {}
}
public struct Photo: Sendable, Hashable { public var name: String }
public struct Receipt: Sendable { public var photo: Photo }
public struct Book: Sendable { public var title: String }
public struct Order: Sendable { public var total: Int }
public struct Row: Sendable {}
public struct Migration: Sendable {}
public struct Money: Sendable, AdditiveArithmetic {
    public var cents: Int
    public static let zero = Money(cents: 0)
    public static func + (a: Money, b: Money) -> Money { Money(cents: a.cents + b.cents) }
    public static func - (a: Money, b: Money) -> Money { Money(cents: a.cents - b.cents) }
}
public struct Invoice: Sendable { public var amount: Money }
public struct Header: Sendable {}
public struct Badge: Sendable {}
public struct Token: Sendable {}
public struct AnalyticsEvent: Sendable {}
public struct Document: Sendable { public var pages: [Page] }
public struct Page: Sendable {}

public enum ValidationError: Error { case notPositive }
public struct Unauthorized: Error { public init() {} }
public struct SlowNetwork: Error { public init() {} }

public let user = User(id: 1, name: "Ada", isActive: true)
public let photo = Photo(name: "beach.jpg")
public let photos = [Photo(name: "beach.jpg"), Photo(name: "hill.jpg")]
public let placeholderAvatar = Data()
public let event = AnalyticsEvent()
public let query = "vow"
public let name = "ada"
public let password = "correct horse"
public let migrations = [Migration()]
public let invoices = [Invoice(amount: Money(cents: 1200))]
public let file = URL(fileURLWithPath: "/tmp/rows.csv")
public let url = URL(string: "http://127.0.0.1:8080/feed")!
public let urls = [url, URL(string: "http://127.0.0.1:8080/photos")!]
public let mirrors = urls
public let reportURL = URL(fileURLWithPath: "/tmp/report.json")
public let logURL = URL(fileURLWithPath: "/tmp/app.log")
public let settingsFile = URL(fileURLWithPath: "/tmp/settings.json")
public let archive = URL(fileURLWithPath: "/tmp/archive.zip")
public let destination = URL(fileURLWithPath: "/tmp/download")
public let request = URLRequest(url: url)
public let body = Data()
public let session = URLSession.shared

extension Notification.Name {
    public static let downloadFinished = Notification.Name("downloadFinished")
}

// MARK: - Asynchronous work

public func fetchUser(id: Int) -> Promise<User> {
    DispatchQueue.global().async(.promise) {
        User(id: id, name: id == 1 ? "Ada" : "User \(id)", isActive: true)
    }
}
public func fetchUserIDs() -> Promise<[Int]> { Promise.value([1, 2, 3]) }
public func fetchSettings() -> Promise<Settings> { Promise { try Settings(contentsOf: settingsFile) } }
public func fetchFeed() -> Promise<Feed> { Promise.value(Feed(items: [])) }
public func fetchProfile() -> Promise<Profile> { Promise.value(Profile(name: "Ada")) }
public func fetchData() -> Promise<Data> { Promise.value(Data()) }
public func fetchLog() -> Promise<String> { Promise.value("") }
public func fetchOrders() -> Promise<[Order]> { Promise.value([]) }
public func fetchAvatar(for user: User) -> Promise<Data> { Promise.value(Data()) }
public func fetchFromNetwork() -> Promise<Data> { Promise(error: URLError(.notConnectedToInternet)) }
public func fetchFromCache() -> Promise<Data> { Promise.value(Data()) }
public func readSetting(_ key: String) -> Promise<String> { Promise.value("8080") }
public func download(_ url: URL) -> Promise<Data> { Promise.value(Data()) }
public func download(from url: URL) -> Promise<Data> { download(url) }
public func upload(_ photo: Photo) -> Promise<Receipt> { Promise.value(Receipt(photo: photo)) }
public func sendAnalytics(_ event: AnalyticsEvent) -> Promise<Void> { Promise() }
public func saveDraft() -> Guarantee<Void> { Guarantee.value(()) }
public func login(_ name: String, _ password: String) -> Promise<User> { fetchUser(id: 1) }
public func followers(of user: User) -> Promise<[User]> { Promise.value([]) }
public func read(_ file: URL) -> Promise<[Row]> { Promise.value([]) }
public func store(_ rows: [Row]) {}
public func render(_ page: Page) async throws -> Data { Data() }
public func decode(_ data: Data) throws -> Profile { try JSONDecoder().decode(Profile.self, from: data) }
public func renderHeader(_ profile: Profile) -> Header { Header() }
public func renderBadge(_ profile: Profile) -> Badge { Badge() }

/// A web service's client.
public struct API: Sendable {
    public func search(_ query: String) -> Promise<[String]> { Promise.value([]) }
    public func fetchFeed() -> Promise<Feed> { Vow.Promise.value(Feed(items: [])) }
    public func fetchProfile() -> Promise<Profile> { Promise.value(Profile(name: "Ada")) }
    public func profile() -> Promise<Profile> { fetchProfile() }
    public func fetchAvatar(for user: User) -> Promise<Data> { Promise.value(Data()) }
    public func person(identifier: String) -> Promise<Person?> { Promise.value(Person(name: "Ada")) }
    public func books() async throws -> [Book] { [] }
}
public let api = API()

public struct Auth: Sendable {
    public func renewToken() -> Promise<Token> { Promise.value(Token()) }
}
public let auth = Auth()

public struct Database: Sendable {
    public func apply(_ migration: Migration) -> Promise<Void> { Promise() }
}
public let database = Database()

public struct Rates: Sendable {
    public func convert(_ amount: Money) -> Promise<Money> { Promise.value(amount) }
}
public let rates = Rates()

public struct Renderer: Sendable {
    public func thumbnail(for photo: Photo) async throws -> Data { Data() }
}
public let renderer = Renderer()

/// A store with a callback API of the usual shape.
public struct ThumbnailStore: Sendable {
    public func load(_ name: String, completion: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(Data(), nil) }
    }
}
public let thumbnailStore = ThumbnailStore()

public struct Keyboard: Sendable {
    public func onNextKey(_ handler: @escaping @Sendable (Character) -> Void) { handler("y") }
}
public let keyboard = Keyboard()

/// A job with callbacks set before it starts.
public final class Worker {
    public var onFinish: (@Sendable (Int) -> Void)?
    public var onFailure: (@Sendable (any Error) -> Void)?
    public init() {}
    public func start() { onFinish?(0) }
}

// MARK: - What a screen shows

@MainActor public func show<T>(_ value: T) { print(value) }
@MainActor public func report(_ error: any Error) { print("error:", error) }
@MainActor public func toast(_ message: String) { print(message) }
@MainActor public func showSlowNetworkHint() {}

@MainActor public final class Banner {
    public func hide() {}
}
@MainActor public let banner = Banner()

@MainActor public final class Cell {
    public var isVisible = true
    public func show(_ data: Data) {}
}
@MainActor public let cell = Cell()

@MainActor public final class UploadProgress {
    public func completed(_ receipt: Receipt) {}
    public func failed(_ error: any Error) {}
}
@MainActor public let progress = UploadProgress()
