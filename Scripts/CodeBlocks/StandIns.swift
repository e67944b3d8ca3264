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

public struct User: Sendable, Equatable, Codable {
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
public struct Photo: Sendable, Hashable {
    public var name: String
    public var id: String { name }
}
public struct Receipt: Sendable { public var photo: Photo }
public struct Book: Sendable { public var title: String }
public struct Order: Sendable {
    public var total: Int
    public var isOpen: Bool
}
public struct Row: Sendable, Decodable {}
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
    public init() {}
    public func search(_ query: String) -> Promise<[String]> { Promise.value([]) }
    public func fetchFeed() -> Promise<Feed> { Vow.Promise.value(Feed(items: [])) }
    public func fetchProfile() -> Promise<Profile> { Promise.value(Profile(name: "Ada")) }
    public func profile() -> Promise<Profile> { fetchProfile() }
    public func fetchAvatar(for user: User) -> Promise<Data> { Promise.value(Data()) }
    public func person(identifier: String) -> Promise<Person?> { Promise.value(Person(name: "Ada")) }
    public func books() async throws -> [Book] { [] }
    public func fetchPerson(_ id: String) -> Promise<Person> { Promise.value(Person(name: id)) }
    public func fetchManager(of person: Person) -> Promise<Person> { Promise.value(person) }
    public func profile(for userID: Int) async throws -> Profile { Profile(name: "Ada") }
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

// MARK: - Names the API reference's examples borrow

public struct Album: Sendable { public var tracks: [String] }
public struct Folder: Sendable { public var name: String }
public struct Printer: Sendable { public var isOnline: Bool }
public struct Player: Sendable { public var score: Int }
public struct Message: Sendable {}
public struct Image: Sendable {
    public var width: Int
    public var height: Int
}
public struct Location: Sendable {}
public struct Address: Sendable {}
public struct Record: Sendable {}
public struct DiskFullError: Error {}
public struct ClientError: Error {}
public struct Problem: Sendable, Decodable { public var detail: String }

public func fetchUsers() -> Promise<[User]> { Promise.value([user]) }
public func fetchAlbums() -> Promise<[Album]> { Promise.value([]) }
public func fetchLines() -> Promise<[String]> { Promise.value(["1", "x", "3"]) }
public func fetchText() -> Promise<String> { Promise.value("42") }
public func fetchFolders() -> Promise<[Folder]> { Promise.value([]) }
public func listFiles(in folder: Folder) -> Promise<[URL]> { Promise.value([]) }
public func fetchPrinters() -> Promise<[Printer]> { Promise.value([]) }
public func fetchPlayers() -> Promise<[Player]> { Promise.value([]) }
public func fetchMessages() -> Promise<[Message]> { Promise.value([]) }
public func fetchScores() -> Promise<[Int]> { Promise.value([3, 1, 2]) }
public func fetchScore() -> Promise<Int> { Promise.value(3) }
public func fetchImage() -> Promise<Image> { Promise.value(Image(width: 10, height: 10)) }
public func fetchIndex(from mirror: URL) -> Promise<Data> { Promise.value(Data()) }
public func fetch(_ url: URL) -> Promise<Data> { download(url) }
public func fetchFromMirrorA() -> Promise<Data> { Promise.value(Data()) }
public func fetchFromMirrorB() -> Promise<Data> { Promise.value(Data()) }
public func search(_ query: String) -> Promise<[URL]> { Promise.value(urls) }
public func loadThumbnail(_ name: String) -> Guarantee<Data> { Guarantee.value(Data()) }
public func currentLocation() -> Promise<Location> { Promise.value(Location()) }
public func geocode(_ location: Location) -> Promise<Address> { Promise.value(Address()) }
public func currentLocale() -> Guarantee<Locale> { Guarantee.value(Locale(identifier: "en")) }
public func currentTimeZone() -> Guarantee<TimeZone> { Guarantee.value(TimeZone(identifier: "UTC")!) }
public func width() -> Guarantee<Int> { Guarantee.value(2) }
public func height() -> Guarantee<Int> { Guarantee.value(3) }
public func depth() -> Guarantee<Int> { Guarantee.value(4) }
public func red() -> Guarantee<Double> { Guarantee.value(1) }
public func green() -> Guarantee<Double> { Guarantee.value(0.5) }
public func blue() -> Guarantee<Double> { Guarantee.value(0) }
public func alpha() -> Guarantee<Double> { Guarantee.value(1) }
public func a() -> Guarantee<Int> { Guarantee.value(1) }
public func b() -> Guarantee<Int> { Guarantee.value(2) }
public func c() -> Guarantee<Int> { Guarantee.value(3) }
public func d() -> Guarantee<Int> { Guarantee.value(4) }
public func e() -> Guarantee<Int> { Guarantee.value(5) }
public func fadeOut() -> Guarantee<Void> { Guarantee.value(()) }
public func slideAway() -> Guarantee<Void> { Guarantee.value(()) }
public func saveSettings() -> Promise<Void> { Promise() }
public func saveHistory() -> Promise<Void> { Promise() }
public func saveLocal() -> Promise<Void> { Promise() }
public func saveRemote() -> Promise<Void> { Promise() }
public func deleteDraft() -> Promise<Void> { Promise() }
public func delete(_ file: URL) -> Promise<Void> { Promise() }
public func openSession() -> Promise<Photo> { Promise.value(photo) }
public func countWords(_ file: URL) -> Promise<Int> { Promise.value(0) }
public func cachedAvatar() -> Guarantee<Data> { Guarantee.value(Data()) }
public func flakyFetch() -> Promise<Data> { Promise.value(Data()) }
public func load() -> Promise<Profile> { fetchProfile() }
public func parse(_ data: Data) throws -> Report { try Report(parsing: data) }
public func primes(below limit: Int) -> [Int] {
    (2..<limit).filter { n in (2..<n).allSatisfy { n % $0 != 0 } }
}
public func makeGreeting() -> String { "hello" }
public func makeThumbnail(for photo: Photo) async -> Data { Data() }
public func paint(_ r: Double, _ g: Double, _ b: Double, _ a: Double) {}
public func closeSession() -> Guarantee<Void> { Guarantee.value(()) }
public func purgeCaches() {}
public func cleanUp() {}
public func configure(_ user: User, _ settings: Settings) {}
public func use(_ data: Data) {}
public func apply(_ settings: Settings) {}
public func markSaved() {}
public func retryLater() {}
public func removeItem(at url: URL) {}
public func play(_ location: URL) {}
public func signIn() {}
public func refresh() {}

@MainActor public func showAlert(_ error: any Error) {}
@MainActor public func scrollTo(_ message: Message) {}
@MainActor public func removeView() {}
@MainActor public func close() {}

public let id = 1
public let ids = [1, 2, 3]
public let userIDs = ids
public let names = ["beach", "hill"]
public let files = [URL(fileURLWithPath: "/tmp/a.txt")]
public let lines = ["a", "b"]
public let json = Data("{}".utf8)
public let fileURL = URL(fileURLWithPath: "/tmp/notes.txt")
public let caches = URL(fileURLWithPath: "/tmp")
public let record = photo
public let brokenReport = photo
public let placeholder = Data()
public let logQueue = DispatchQueue(label: "log")
public let cacheQueue = DispatchQueue(label: "cache")
public let cacheOperations = OperationQueue()
public let decodingOperations = OperationQueue()
public let imageOperations = OperationQueue()
public let logOperations = OperationQueue()
public let sortingOperations = OperationQueue()
public let eventLoopDispatcher = InlineDispatcher()
public let dispatcher = ManualDispatcher()
public let testing = true
public let downloads = urls.map { download($0) }
public let animations = [fadeOut(), slideAway()]

/// A connection pool that hands out and takes back connections.
public struct Connections: Sendable {
    public func release() {}
}
public let connections = Connections()

/// A connection to close when the work is over.
public struct Connection: Sendable {
    public func close() {}
}
public let connection = Connection()

/// An analytics service.
public struct Analytics: Sendable {
    public func send(_ event: AnalyticsEvent) -> Promise<Void> { Promise() }
}
public let analytics = Analytics()

/// A service that fails now and then.
public struct FlakyService: Sendable {
    public func call() -> Promise<Data> { Promise.value(Data()) }
}
public let flakyService = FlakyService()

/// A logger with levels.
public struct Logger: Sendable {
    public func warning(_ message: String) {}
}
public let logger = Logger()

/// An HTTP client with a `Result` callback.
public struct Client: Sendable {
    public func get(_ url: URL, completion: @escaping @Sendable (Result<Data, ClientError>) -> Void) {
        completion(.success(Data()))
    }
}
public let client = Client()

/// An old API whose callback passes a value and an error.
public struct LegacyAPI: Sendable {
    public func fetch(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        completion("text", nil)
    }
}
public let legacyAPI = LegacyAPI()

/// A cache of thumbnails.
public final class ThumbnailCache: Sendable {
    public func store(_ thumbnail: Data, for name: String) {}
}
public let cache = ThumbnailCache()

@MainActor public final class Spinner {
    public init() {}
    public func start() {}
    public func stop() {}
}
@MainActor public let spinner = Spinner()

@MainActor public final class ImageView {
    public var image: Data?
}
@MainActor public let imageView = ImageView()

@MainActor public final class Label {
    public var text = ""
}
@MainActor public let status = Label()

@MainActor public final class Gallery {
    public func show(_ thumbnails: [Data]) {}
}
@MainActor public let gallery = Gallery()

@MainActor public final class Alert {
    public var message = ""
    public var onChoice: (@MainActor (Bool) -> Void)?
}
@MainActor public let alert = Alert()

/// A formatter that needs a locale and a time zone.
public final class Formatter: Sendable {
    public func configure(_ locale: Locale, _ timeZone: TimeZone) {}
}
public let formatter = Formatter()

public func fetchAvatar() -> Promise<Data> { Promise.value(Data()) }
public func writeDraft() -> Promise<Void> { Promise() }
public func connect() -> Promise<Connection> { Promise.value(connection) }
public func syncContacts() -> Promise<Void> { Promise() }
public func upload(_ file: URL) -> Promise<Receipt> { Promise.value(Receipt(photo: photo)) }
public func write(_ data: Data) -> Promise<Void> { Promise() }
public func draw(_ page: Page) -> Data { Data() }
public let frames = [Page()]
public let buffer = Data()
public let users = PromiseCache<Int, User>(keeping: .forever) { id in fetchUser(id: id) }
@MainActor public func render(_ feed: Feed) {}
@MainActor public func show<A, B>(_ first: A, _ second: B) { print(first, second) }
@MainActor public func showAlert(message: String) {}
@MainActor public func report(_ status: Int, _ body: Data) {}

extension User {
    public var wantsAvatars: Bool { true }
}

extension ThumbnailCache {
    public func store(_ user: User) {}
}

/// A log with a level for each message.
public struct Log: Sendable {
    public func callAsFunction(_ message: Any) { print(message) }
    public func write(_ message: String) {}
    public func error(_ message: String) {}
    public func warning(_ message: String) {}
}
public let log = Log()

/// A file handle whose `close` reports an optional error.
public struct Handle: Sendable {
    public func close(completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
}
public let handle = Handle()

@MainActor public final class Button {
    public var onTap: (@Sendable () -> Void)?
}
@MainActor public let button = Button()

@MainActor public final class Alarm {
    public var onFire: (@Sendable () -> Void)?
}
@MainActor public let timer = Alarm()

@MainActor public let tar = Process()
public let output = ProcessOutput(status: 0, standardOutput: Data(), standardError: Data())
public let failure = ProcessError(
    status: 1, reason: .exit, standardOutput: Data(), standardError: Data(),
    executable: URL(fileURLWithPath: "/bin/sh"), arguments: [])
public let error = HTTPError(status: 503, headers: [:], body: Data(), url: url)
public func listFiles(in folder: String) -> Guarantee<[URL]> { Guarantee.value([]) }
public func logIn(_ name: String, _ password: String) -> Promise<Token> { Promise.value(Token()) }
public func fetchProfile(with token: Token) -> Promise<Profile> { fetchProfile() }

/// A value that is not `Sendable`, as a managed object or an attributed string is.
public final class Note {
    public var text: String
    public var tags: [String] = []
    public init(text: String) { self.text = text }
}
public enum StoreError: Error { case notFound }
public func fetchMarkdown(id: Int) -> Promise<String> { Promise.value("# Notes") }
@MainActor public func fetchNote() -> MainActorPromise<Note> { .value(Note(text: "draft")) }
@MainActor public func confirm(deleting note: Note) -> MainActorGuarantee<Bool> { .value(true) }
@MainActor public func save(_ note: Note) -> MainActorPromise<Void> { .value(()) }
@MainActor public final class TextView {
    public var note: Note?
    public init() {}
}
@MainActor public let textView = TextView()
@MainActor public final class Picker {
    public var onPick: (@MainActor (Note) -> Void)?
}
@MainActor public let picker = Picker()

// PromiseKit's two samples that meet values which are not Sendable, shaped as their frameworks
// shape them: an audio player made from an asset's data, and a server's response.

/// AVFoundation's player, which is not `Sendable`.
public final class AVAudioPlayer {
    public init(data: Data) throws {}
    @discardableResult public func prepareToPlay() -> Bool { true }
    @discardableResult public func play() -> Bool { true }
}
/// UIKit's asset catalogue entry, which is not `Sendable` either.
public final class NSDataAsset {
    public let data = Data()
    public init?(name: String) {}
}
public final class RouterRequest {}
/// A server's response, which is not `Sendable`: it writes to one connection.
public final class RouterResponse {
    @discardableResult public func send(_ text: String) -> RouterResponse { self }
}
extension Log {
    public static func info(_ message: String) {}
}
/// Kitura's router, as a Swift 6 framework would declare it: its threads call the handlers,
/// concurrently, so a handler is `@Sendable`.
public final class Router: Sendable {
    public init() {}
    public func get(
        _ path: String,
        handler:
            @escaping @Sendable (RouterRequest, RouterResponse, @escaping @Sendable () -> Void) throws -> Void
    ) {}
}
/// A router that calls its handlers on the main actor, as a server that answers on the main
/// queue does.
@MainActor public final class MainActorRouter {
    public init() {}
    public func get(
        _ path: String,
        handler: @escaping @MainActor (RouterRequest, RouterResponse, @escaping @MainActor () -> Void) -> Void
    ) {}
}
/// The server: `run()` keeps the calling thread, as Kitura's does; `start()` returns at once.
public enum Server {
    public static func addHTTPServer(onPort port: Int, with router: Router) {}
    @MainActor public static func addHTTPServer(onPort port: Int, with router: MainActorRouter) {}
    public static func run() {}
    public static func start() {}
}
