import DAVTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import PlainContacts

/// A temporary store folder with an empty `people/` folder.
private func makeStore() throws -> TemporaryStore {
    let temporary = try TemporaryStore()
    try FileManager.default.createDirectory(at: temporary.path("people"), withIntermediateDirectories: true)
    return temporary
}

/// A prompt that gives a fixed answer and counts how often it was asked.
private final class RecordingPrompt: AccessPrompt {
    let answer: Bool?
    private let questions = Mutex<[String]>([])

    init(answer: Bool?) {
        self.answer = answer
    }

    func askForAccess(client: String, store: URL) async -> Bool? {
        questions.withLock { $0.append(client) }
        return answer
    }

    var askedClients: [String] { questions.withLock { $0 } }
}

/// Counts completion calls and whether any ran on the thread that made the request.
private final class CompletionLog: Sendable {
    private let state = Mutex<(calls: Int, onCallingThread: Int)>((0, 0))

    /// Records a call; returns whether it is the first.
    func record(onCallingThread: Bool) -> Bool {
        state.withLock { state in
            state.calls += 1
            if onCallingThread { state.onCallingThread += 1 }
            return state.calls == 1
        }
    }

    var calls: Int { state.withLock { $0.calls } }
    var callsOnCallingThread: Int { state.withLock { $0.onCallingThread } }
}

/// Requests access with the completion-handler form and waits for the completion.
private func requestWithCompletion(
    client: String, store: URL, prompt: any AccessPrompt
) async -> (granted: Bool, error: ContactsError?) {
    await withCheckedContinuation { continuation in
        AccessRequest.requestAccess(client: client, store: store, prompt: prompt) { granted, error in
            continuation.resume(returning: (granted, error))
        }
    }
}

@Suite("AccessRequest", .timeLimit(.minutes(1)))
struct AccessRequestTests {
    @Test func allowingGrantsAccessAndRecordsAuthorized() async throws {
        let temporary = try makeStore()
        let prompt = RecordingPrompt(answer: true)

        let outcome = await requestWithCompletion(client: "com.example.mailer", store: temporary.storeURL, prompt: prompt)

        #expect(outcome.granted)
        #expect(outcome.error == nil)
        #expect(prompt.askedClients == ["com.example.mailer"])
        #expect(AccessConsentStore(storeURL: temporary.storeURL).status(for: "com.example.mailer") == .authorized)
    }

    @Test func refusingDeniesAccessAndRecordsDenied() async throws {
        let temporary = try makeStore()

        let outcome = await requestWithCompletion(
            client: "com.example.mailer", store: temporary.storeURL, prompt: FixedAccessPrompt(answer: false))

        #expect(!outcome.granted)
        #expect(outcome.error == nil)
        #expect(AccessConsentStore(storeURL: temporary.storeURL).status(for: "com.example.mailer") == .denied)
    }

    @Test func promptThatCannotAskLeavesTheStatusNotDetermined() async throws {
        let temporary = try makeStore()
        let prompt = RecordingPrompt(answer: nil)

        let outcome = await requestWithCompletion(client: "com.example.mailer", store: temporary.storeURL, prompt: prompt)

        #expect(!outcome.granted)
        #expect(outcome.error == nil)
        #expect(prompt.askedClients.count == 1)
        #expect(AccessConsentStore(storeURL: temporary.storeURL).status(for: "com.example.mailer") == .notDetermined)
        #expect(try !temporary.files(in: ".contacts").contains("access.json"))
    }

    @Test(arguments: [(AuthorizationStatus.authorized, true), (.denied, false)])
    func decidedClientIsNotAskedAgain(recorded: AuthorizationStatus, granted: Bool) async throws {
        let temporary = try makeStore()
        try AccessConsentStore(storeURL: temporary.storeURL).setStatus(recorded, for: "com.example.mailer")
        let prompt = RecordingPrompt(answer: !granted)

        let outcome = await requestWithCompletion(client: "com.example.mailer", store: temporary.storeURL, prompt: prompt)

        #expect(outcome.granted == granted)
        #expect(outcome.error == nil)
        #expect(prompt.askedClients.isEmpty)
        #expect(AccessConsentStore(storeURL: temporary.storeURL).status(for: "com.example.mailer") == recorded)
    }

    @Test func restrictedClientIsRefusedWithoutAsking() async throws {
        let temporary = try makeStore()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write(#"{"restrictedClients": ["com.example.tracker"]}"#, to: ".contacts/policy.json")
        let prompt = RecordingPrompt(answer: true)

        let outcome = await requestWithCompletion(client: "com.example.tracker", store: temporary.storeURL, prompt: prompt)

        #expect(!outcome.granted)
        #expect(outcome.error == nil)
        #expect(prompt.askedClients.isEmpty)
    }

    @Test func clientRestrictedByPermissionsIsRefusedWithoutAsking() async throws {
        let temporary = try makeStore()
        let consent = AccessConsentStore(storeURL: temporary.storeURL, permissionCheck: { _ in false })
        let prompt = RecordingPrompt(answer: true)

        let outcome = await AccessRequest.perform(client: "com.example.mailer", store: consent, prompt: prompt)

        #expect(!outcome.granted)
        #expect(outcome.error == nil)
        #expect(prompt.askedClients.isEmpty)
    }

    @Test func ownerClientIsGrantedWithoutAsking() async throws {
        let temporary = try makeStore()
        let prompt = RecordingPrompt(answer: false)

        let outcome = await requestWithCompletion(
            client: AccessConsentStore.ownerClient, store: temporary.storeURL, prompt: prompt)

        #expect(outcome.granted)
        #expect(prompt.askedClients.isEmpty)
    }

    @Test func invalidClientNameFailsWithInvalidValueWithoutAsking() async throws {
        let temporary = try makeStore()
        let prompt = RecordingPrompt(answer: true)

        let outcome = await requestWithCompletion(client: "bad\u{7}name", store: temporary.storeURL, prompt: prompt)

        #expect(!outcome.granted)
        #expect(outcome.error?.code == .invalidValue)
        #expect(prompt.askedClients.isEmpty)
    }

    @Test func failureToRecordTheAnswerRefusesWithTheError() async throws {
        let temporary = try TemporaryStore()
        let prompt = RecordingPrompt(answer: true)

        let outcome = await requestWithCompletion(client: "com.example.mailer", store: temporary.storeURL, prompt: prompt)

        #expect(!outcome.granted)
        #expect(outcome.error?.code == .io)
        #expect(prompt.askedClients.count == 1)
    }

    @Test func damagedConsentFileRefusesWithMalformedFile() async throws {
        let temporary = try makeStore()
        try FileManager.default.createDirectory(at: temporary.path(".contacts"), withIntermediateDirectories: true)
        try temporary.write("{", to: ".contacts/access.json")

        let outcome = await requestWithCompletion(
            client: "com.example.mailer", store: temporary.storeURL, prompt: FixedAccessPrompt(answer: true))

        #expect(!outcome.granted)
        #expect(outcome.error?.code == .malformedFile)
    }

    /// Each case sets up a store in which a request for `com.example.mailer` ends a different way.
    enum Scenario: CaseIterable {
        case asked, alreadyAuthorized, couldNotAsk, invalidClient, writeFailed
    }

    @Test(arguments: Scenario.allCases)
    func completionRunsExactlyOnceAndNotOnTheCallingThread(scenario: Scenario) async throws {
        let temporary = scenario == .writeFailed ? try TemporaryStore() : try makeStore()
        if scenario == .alreadyAuthorized {
            try AccessConsentStore(storeURL: temporary.storeURL).setStatus(.authorized, for: "com.example.mailer")
        }
        let client = scenario == .invalidClient ? "" : "com.example.mailer"
        let prompt = FixedAccessPrompt(answer: scenario == .couldNotAsk ? nil : true)
        let storeURL = temporary.storeURL
        let log = CompletionLog()

        // The request is made from a thread that then blocks until the completion has run, so
        // a completion on the calling thread can only happen inside the call itself.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let caller = Thread {
                let callingThread = pthread_self()
                let completed = DispatchSemaphore(value: 0)
                AccessRequest.requestAccess(client: client, store: storeURL, prompt: prompt) { _, _ in
                    let isFirst = log.record(onCallingThread: pthread_equal(callingThread, pthread_self()) != 0)
                    completed.signal()
                    if isFirst { continuation.resume() }
                }
                completed.wait()
            }
            caller.start()
        }

        #expect(log.calls == 1)
        #expect(log.callsOnCallingThread == 0)
    }

    @Test func asyncFormReportsTheOutcome() async throws {
        let temporary = try makeStore()

        let granted = await AccessRequest.requestAccess(
            client: "com.example.mailer", store: temporary.storeURL, prompt: FixedAccessPrompt(answer: true))
        let refused = await AccessRequest.requestAccess(
            client: "com.example.backup", store: temporary.storeURL, prompt: FixedAccessPrompt(answer: false))
        let failed = await AccessRequest.requestAccess(
            client: "", store: temporary.storeURL, prompt: FixedAccessPrompt(answer: true))

        #expect(granted)
        #expect(!refused)
        #expect(!failed)
        let consent = AccessConsentStore(storeURL: temporary.storeURL)
        #expect(consent.status(for: "com.example.mailer") == .authorized)
        #expect(consent.status(for: "com.example.backup") == .denied)
    }

    @Test(arguments: [true, false, nil] as [Bool?])
    func fixedPromptGivesItsAnswer(answer: Bool?) async {
        let prompt = FixedAccessPrompt(answer: answer)

        #expect(await prompt.askForAccess(client: "com.example.mailer", store: URL(filePath: "/tmp/book")) == answer)
    }
}
