import Dispatch
import Synchronization

/// What a ``CardDAVCardWarmer`` makes cards for: the collection whose listing named cards
/// without making them.
protocol CardDAVWarmedCards: AnyObject, Sendable {
    /// The entries of those of `names` that are still cards of the collection without bytes
    /// kept in memory.
    func entriesWithoutCards(named names: [String]) -> [CardDAVEntry]

    /// Keeps the cards made for `entries`, each while its entry still names the files and ETag
    /// it was made from; `false` when the memory for cards is full.
    func keepMade(_ made: [(entry: CardDAVEntry, outcome: CardDAVCardMaker.Outcome)]) -> Bool
}

/// Makes, in the background, the cards a bulk change listed without making, so that clients
/// fetching them (hundreds per multiget) find them made.
///
/// It starts ``delay`` after it is given names, so as not to slow the answer of the listing that
/// gave them, and makes them on one core, ``batch`` at a time: the other core is left to the
/// requests, and the collection's lock is taken once per batch, so requests are not kept
/// waiting. It stops when every card is made or the memory for cards is full (the rest are made
/// when asked for).
///
/// ```swift
/// let warmer = CardDAVCardWarmer(maker: maker)
/// warmer.warm(unmadeNames, for: collection)
/// ```
final class CardDAVCardWarmer: Sendable {
    /// How long after it is given names the background making starts.
    static let delay: DispatchTimeInterval = .seconds(1)
    /// How many cards are made between two takings of the collection's lock.
    static let batch = 256

    /// The names still to be made, and whether the making runs.
    private struct Work {
        var names: [String] = []
        var running = false
    }

    /// Makes the cards.
    private let maker: CardDAVCardMaker
    /// Whether cards are made at all (`false` leaves them to be made when asked for).
    private let enabled: Bool
    /// What is to be made.
    private let work = Mutex(Work())

    /// A warmer that makes cards with `maker`; a disabled one makes none.
    init(maker: CardDAVCardMaker, enabled: Bool = true) {
        self.maker = maker
        self.enabled = enabled
    }

    /// Has the cards of `names` made in the background, for `cards`, starting the making unless
    /// it runs. The warmer holds `cards` weakly: the making stops when it goes.
    func warm(_ names: [String], for cards: some CardDAVWarmedCards) {
        guard enabled, !names.isEmpty else { return }
        let starts = work.withLock { work in
            work.names += names
            defer { work.running = true }
            return !work.running
        }
        guard starts else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.delay) { [weak self, weak cards] in
            guard let self else { return }
            makeCards(for: cards)
        }
    }

    /// Makes the cards named, a batch at a time, until none are left, the memory for cards is
    /// full or `cards` is gone.
    private func makeCards(for cards: (any CardDAVWarmedCards)?) {
        while true {
            let names: [String] = work.withLock { work in
                let names = Array(work.names.suffix(Self.batch).reversed())
                work.names.removeLast(names.count)
                if names.isEmpty || cards == nil {
                    work.names.removeAll()
                    work.running = false
                }
                return names
            }
            guard let cards, !names.isEmpty else { return }
            let entries = cards.entriesWithoutCards(named: names)
            // On one core: the other is left to the requests (the listing that started this is
            // still writing its answer).
            let made = entries.map { entry in (entry: entry, outcome: maker.outcome(entry.record) { _ in nil }) }
            if !cards.keepMade(made) {
                work.withLock { work in
                    work.names.removeAll()
                    work.running = false
                }
                return
            }
        }
    }
}
