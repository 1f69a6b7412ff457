import Foundation

/// The client's path: a server's answer read as `contacts sync` reads it.
extension WebDAVReadingPaths {
    /// The client's reading of a server's answer: as a multistatus (every `PROPFIND` and
    /// `REPORT` of `contacts sync` and of discovery) and as a `DAV:error` of a 403.
    package static func readAnswer(_ data: Data) -> Outcome {
        _ = HTTPClient.lacksPrivileges(HTTPResponse(status: 403, body: data, url: URL(filePath: "/")))
        do {
            _ = try WebDAVMultistatus.parse(data, url: "http://127.0.0.1/fuzz/")
            return .read
        } catch let error as SyncError where error.code == .malformedResponse {
            return .refused
        } catch {
            return .failed("the answer was refused with \(error), not a malformed-response SyncError")
        }
    }
}
