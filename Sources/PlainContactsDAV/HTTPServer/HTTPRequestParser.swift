#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Reads HTTP/1.1 requests out of bytes that arrive in pieces of any size, down to one byte at
/// a time, without touching a socket.
///
/// Feed it what a connection received with ``append(_:)``, then call ``next()`` until it
/// returns `nil` (it wants more bytes). Requests come out in the order they were sent, so
/// pipelined requests are read one after the other. A ``Event/failure(_:)`` is final: its
/// error carries the status to answer with before closing the connection, and the parser
/// returns it again on every later call.
///
/// ```swift
/// var parser = HTTPRequestParser(limits: HTTPServerLimits())
/// parser.append(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
/// if case .request(let request) = parser.next() { print(request.path) }   // "/a"
/// ```
struct HTTPRequestParser: Sendable {
    /// What the parser found in the bytes so far.
    enum Event: Sendable, Hashable {
        /// The header block of a request with `Expect: 100-continue` is complete, and its
        /// declared body is within the limit: the server answers `100 Continue` now, and the
        /// request follows once its body has arrived.
        case continueExpected
        /// A complete request, body included.
        case request(HTTPServerRequest)
        /// The request is refused; the error's ``HTTPServerError/status`` is the answer, after
        /// which the connection must close (its framing can no longer be trusted).
        case failure(HTTPServerError)
    }

    /// The longest chunk-size line, extensions included: 4 KiB is far more than a size and the
    /// extensions clients actually send, and keeps a line without an end from growing memory.
    static let maxChunkLineLength = 4 * 1024

    /// How many consumed bytes may stay at the front of the buffer before ``append(_:)`` drops
    /// them: 64 KiB keeps copying rare without holding much memory.
    private static let compactionThreshold = 64 * 1024

    /// The largest body buffer reserved up front for a `Content-Length`: 1 MiB, so that a client
    /// declaring a large body it never sends does not make the server reserve all of it.
    private static let maxInitialBodyReservation = 1024 * 1024

    /// Where the parser is in the request being read.
    private enum Stage: Sendable {
        /// Waiting for the request line (empty lines before it are skipped).
        case requestLine
        /// Reading header fields up to the empty line.
        case headerLines
        /// Reading a `Content-Length` body; the count of bytes still to come.
        case body(remaining: Int)
        /// Reading the line that gives the next chunk's size.
        case chunkSizeLine
        /// Reading a chunk's data; the count of bytes still to come.
        case chunkData(remaining: Int)
        /// Reading the line end after a chunk's data.
        case chunkDataEnd
        /// Reading trailer fields up to the empty line; they are checked and dropped.
        case trailerLines
        /// A request was refused; nothing more is read.
        case failed(HTTPServerError)
    }

    /// The result of looking for a complete line in the buffer.
    private enum Line {
        /// A line: its bytes without the line end, and how many bytes it took with its end.
        case complete(ArraySlice<UInt8>, consumed: Int)
        /// No line end yet; more bytes are needed.
        case incomplete
        /// The line is longer than allowed, with or without its end.
        case tooLong
        /// The line holds a carriage return that does not end it.
        case bareCarriageReturn
    }

    /// The result of looking for a field line.
    private enum FieldLine {
        /// A header or trailer field.
        case field(HTTPHeaderFields.Field)
        /// The empty line that ends the block.
        case end
        /// No complete line yet; more bytes are needed.
        case incomplete
        /// The line, or the block, breaks a rule or a limit.
        case failure(HTTPServerError)
    }

    /// The limits the request is checked against.
    let limits: HTTPServerLimits
    /// Bytes received and not all consumed yet.
    private var buffer: [UInt8] = []
    /// The index of the first unconsumed byte of ``buffer``.
    private var position = 0
    /// The index up to which the current line has been searched for its end, so that a line
    /// arriving a byte at a time is scanned once.
    private var scanned = 0
    /// Where the parser is.
    private var stage = Stage.requestLine
    /// The request line of the request being read, or of the one refused; `nil` before one is
    /// read. The server logs a refusal with its method and path.
    private(set) var requestLine: RequestLine?
    /// The header fields of the request being read.
    private var headers = HTTPHeaderFields()
    /// Bytes of the header block, or of the trailers, so far.
    private var blockSize = 0
    /// Fields of the header block, or of the trailers, so far.
    private var fieldCount = 0
    /// The body of the request being read, handed to the request without a copy.
    private var body = Data()

    /// Creates a parser for one connection.
    init(limits: HTTPServerLimits = HTTPServerLimits()) {
        self.limits = limits
    }

    /// Whether part of a request has been received: unconsumed bytes, or a request begun but
    /// not complete. A connection in this state is answered 408 when it times out.
    var isPartway: Bool {
        if case .requestLine = stage { return position < buffer.count }
        return true
    }

    /// Whether a request has begun and its header block is not complete yet: the part of a
    /// request ``HTTPServerLimits/headerBlockTimeout`` bounds.
    var isReadingHeaderBlock: Bool {
        switch stage {
        case .requestLine: position < buffer.count
        case .headerLines: true
        case .body, .chunkSizeLine, .chunkData, .chunkDataEnd, .trailerLines, .failed: false
        }
    }

    /// Adds bytes received from the client.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        if position > 0, position == buffer.count || position >= Self.compactionThreshold {
            buffer.removeSubrange(..<position)
            scanned -= position
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next request or failure found in the bytes so far, or `nil` when more are needed.
    mutating func next() -> Event? {
        while true {
            switch stage {
            case .failed(let error):
                return .failure(error)
            case .requestLine:
                switch takeLine(maxConsumed: limits.maxRequestLineLength + 2) {
                case .incomplete: return nil
                case .tooLong: return fail(Self.requestLineTooLong)
                case .bareCarriageReturn: return fail(.badRequest("carriage return inside the request line"))
                case .complete(let line, _):
                    if line.isEmpty { continue }
                    guard line.count <= limits.maxRequestLineLength else { return fail(Self.requestLineTooLong) }
                    do {
                        requestLine = try Self.parseRequestLine(line)
                    } catch {
                        return fail(error)
                    }
                    stage = .headerLines
                }
            case .headerLines:
                switch takeFieldLine() {
                case .incomplete: return nil
                case .failure(let error): return fail(error)
                case .field(let field): headers.append(field.name, field.value)
                case .end:
                    if let event = finishHead() { return event }
                }
            case .body(let remaining):
                let taken = takeBody(upTo: remaining)
                guard taken == remaining else {
                    stage = .body(remaining: remaining - taken)
                    return nil
                }
                return complete()
            case .chunkSizeLine:
                switch takeLine(maxConsumed: Self.maxChunkLineLength + 2) {
                case .incomplete: return nil
                case .tooLong: return fail(.badRequest("chunk-size line too long"))
                case .bareCarriageReturn: return fail(.badRequest("carriage return inside a chunk-size line"))
                case .complete(let line, _):
                    do {
                        let size = try Self.parseChunkSize(line, allowance: limits.maxBodySize - body.count)
                        if size == 0 {
                            stage = .trailerLines
                            blockSize = 0
                            fieldCount = 0
                        } else {
                            stage = .chunkData(remaining: size)
                        }
                    } catch {
                        return fail(error)
                    }
                }
            case .chunkData(let remaining):
                let taken = takeBody(upTo: remaining)
                guard taken == remaining else {
                    stage = .chunkData(remaining: remaining - taken)
                    return nil
                }
                stage = .chunkDataEnd
            case .chunkDataEnd:
                guard position < buffer.count else { return nil }
                if buffer[position] == HTTPSyntax.lineFeed {
                    position += 1
                } else if buffer[position] == HTTPSyntax.carriageReturn {
                    guard position + 1 < buffer.count else { return nil }
                    guard buffer[position + 1] == HTTPSyntax.lineFeed else {
                        return fail(.badRequest("chunk data not followed by a line end"))
                    }
                    position += 2
                } else {
                    return fail(.badRequest("chunk data longer than its size"))
                }
                scanned = position
                stage = .chunkSizeLine
            case .trailerLines:
                switch takeFieldLine() {
                case .incomplete: return nil
                case .failure(let error): return fail(error)
                case .field: continue
                case .end: return complete()
                }
            }
        }
    }

    /// The error for a request line over the limit.
    private static let requestLineTooLong = HTTPServerError(
        .requestLineTooLong, "request line longer than the limit", status: 414)

    /// Takes the next field line of the header block or the trailers, checking the block's size
    /// and field count.
    private mutating func takeFieldLine() -> FieldLine {
        switch takeLine(maxConsumed: limits.maxHeaderBlockSize - blockSize) {
        case .incomplete:
            return .incomplete
        case .tooLong:
            return .failure(HTTPServerError(.headerBlockTooLarge, "header block larger than the limit", status: 431))
        case .bareCarriageReturn:
            return .failure(.badRequest("carriage return inside a header field"))
        case .complete(let line, let consumed):
            blockSize += consumed
            if line.isEmpty { return .end }
            fieldCount += 1
            guard fieldCount <= limits.maxHeaderCount else {
                return .failure(HTTPServerError(.tooManyHeaders, "more header fields than the limit", status: 431))
            }
            do {
                return .field(try Self.parseField(line))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Decides how the body is framed once the header block is complete, and moves on to it:
    /// the event to report now, or `nil` to go on reading.
    private mutating func finishHead() -> Event? {
        let framing: Framing
        do {
            framing = try Self.framing(of: headers, version: requestLine?.version ?? .http1_1, limits: limits)
        } catch {
            return fail(error)
        }
        let expectsContinue = requestLine?.version == .http1_1
            && headers.containsToken("100-continue", in: "Expect")
        switch framing {
        case .length(0):
            return complete()
        case .length(let length):
            body.reserveCapacity(min(length, Self.maxInitialBodyReservation))
            stage = .body(remaining: length)
        case .chunked:
            stage = .chunkSizeLine
        }
        return expectsContinue ? .continueExpected : nil
    }

    /// Finds the next line in the buffer and consumes it, if it ends within `maxConsumed`
    /// bytes (line end included). A line may end with CRLF or, leniently, with LF alone.
    private mutating func takeLine(maxConsumed: Int) -> Line {
        let searchEnd = min(buffer.count, position + max(0, maxConsumed))
        let start = max(scanned, position)
        guard let lineFeed = buffer[start..<max(start, searchEnd)].firstIndex(of: HTTPSyntax.lineFeed) else {
            scanned = max(start, searchEnd)
            return buffer.count - position >= maxConsumed ? .tooLong : .incomplete
        }
        let consumed = lineFeed + 1 - position
        var line = buffer[position..<lineFeed]
        if line.last == HTTPSyntax.carriageReturn { line.removeLast() }
        position = lineFeed + 1
        scanned = position
        if line.contains(HTTPSyntax.carriageReturn) { return .bareCarriageReturn }
        return .complete(line, consumed: consumed)
    }

    /// Moves up to `count` buffered bytes into the body; returns how many it moved.
    private mutating func takeBody(upTo count: Int) -> Int {
        let taken = min(count, buffer.count - position)
        body.append(contentsOf: buffer[position..<(position + taken)])
        position += taken
        scanned = position
        return taken
    }

    /// Hands out the request read so far and gets ready for the next one.
    private mutating func complete() -> Event {
        guard let requestLine else { return fail(.badRequest("request without a request line")) }
        let request = HTTPServerRequest(
            method: requestLine.method, target: requestLine.target, version: requestLine.version,
            headers: headers, body: body)
        self.requestLine = nil
        stage = .requestLine
        headers = HTTPHeaderFields()
        body = Data()
        blockSize = 0
        fieldCount = 0
        return .request(request)
    }

    /// Refuses the request for good.
    private mutating func fail(_ error: HTTPServerError) -> Event {
        stage = .failed(error)
        buffer = []
        position = 0
        scanned = 0
        return .failure(error)
    }
}
