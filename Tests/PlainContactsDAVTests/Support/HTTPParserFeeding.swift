@testable import PlainContacts
@testable import PlainContactsDAV

/// Feeds bytes to a parser in pieces of a chosen size and collects what comes out, the way a
/// connection would.
enum HTTPParserFeeding {
    /// Every event the parser gives for `bytes` fed `pieceSize` bytes at a time, up to and
    /// including the first failure.
    static func events(
        _ bytes: [UInt8], limits: HTTPServerLimits = HTTPServerLimits(), pieceSize: Int = .max
    ) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPRequestParser.Event] = []
        var offset = 0
        repeat {
            let end = offset + min(pieceSize, bytes.count - offset)
            parser.append(bytes[offset..<end])
            offset = end
            while let event = parser.next() {
                events.append(event)
                if case .failure = event { return events }
            }
        } while offset < bytes.count
        return events
    }

    /// Every event for a text, its line ends written as `\r\n`.
    static func events(
        _ text: String, limits: HTTPServerLimits = HTTPServerLimits(), pieceSize: Int = .max
    ) -> [HTTPRequestParser.Event] {
        events(Array(text.utf8), limits: limits, pieceSize: pieceSize)
    }

    /// The requests among the events.
    static func requests(in events: [HTTPRequestParser.Event]) -> [HTTPServerRequest] {
        events.compactMap { event in
            if case .request(let request) = event { return request }
            return nil
        }
    }

    /// The failure among the events, if any.
    static func failure(in events: [HTTPRequestParser.Event]) -> HTTPServerError? {
        events.lazy.compactMap { event -> HTTPServerError? in
            if case .failure(let error) = event { return error }
            return nil
        }.first
    }
}
