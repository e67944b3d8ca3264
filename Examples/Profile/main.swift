// A Swift 6 app's model, as a script: a `@MainActor` class loads a profile through a chain and
// updates its own state from the handlers, with no annotation. The handlers run on the main
// actor because they were written there; the decoding runs off it because it asks to.
//
//     swift run profile
import Foundation
import Vow

struct Profile: Decodable, Sendable {
    let name: String
    let projects: [String]
}

/// Reads and decodes a profile on a background queue.
func fetchProfile(at url: URL) -> Promise<Profile> {
    DispatchQueue.global().async(.promise) {
        try JSONDecoder().decode(Profile.self, from: Data(contentsOf: url))
    }
}

@MainActor final class ProfileModel {
    enum State {
        case idle, loading, loaded(Profile), failed(String)
    }

    private(set) var state = State.idle
    private(set) var headline = ""
    private(set) var log: [String] = []

    /// Loads the profile at `url`; the returned guarantee resolves once the state is final.
    func refresh(from url: URL) -> Guarantee<Void> {
        state = .loading
        return fetchProfile(at: url).map(on: .global()) { profile in
            // Named a queue, so this step is nonisolated: it sorts off the main actor and may
            // not touch the model.
            Profile(name: profile.name, projects: profile.projects.sorted())
        }.get { profile in
            self.log.append("loaded \(profile.name)")
        }.done(self.show).catch { error in
            self.state = .failed("\(error)")
            self.headline = "No profile"
        }.finally {
            self.log.append("finished with \(self.headline)")
        }
    }

    private func show(_ profile: Profile) {
        state = .loaded(profile)
        headline = "\(profile.name): \(profile.projects.joined(separator: ", "))"
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vow-profile-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let saved = folder.appendingPathComponent("ada.json")
try Data(#"{"name": "Ada", "projects": ["Engine", "Notes"]}"#.utf8).write(to: saved)

let model = ProfileModel()
hang(model.refresh(from: saved))
print(model.headline)
hang(model.refresh(from: folder.appendingPathComponent("missing.json")))
print(model.headline)
print(model.log.joined(separator: "\n"))

let expected = ["loaded Ada", "finished with Ada: Engine, Notes", "finished with No profile"]
if model.log != expected || model.headline != "No profile" {
    print("unexpected: the example did not behave as its comments say")
    exit(1)
}
