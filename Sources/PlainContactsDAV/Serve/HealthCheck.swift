#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The liveness path of `contacts serve`: `GET /health` answers `200 ok` without credentials,
/// for a reverse proxy's or a service manager's health check.
///
/// The answer says only that the server process is answering: no version, no store, no count
/// of users or cards, and it reads nothing from the store, so it is cheap and leaks nothing.
/// It is answered before authentication and before the refusal of proxied requests on a server
/// without users, since it discloses nothing a proxy could make public.
///
/// ```swift
/// HealthCheck.response(to: HTTPServerRequest(method: "GET", target: "/health"))?.status  // 200
/// HealthCheck.response(to: HTTPServerRequest(method: "GET", target: "/kim/contacts/"))   // nil
/// ```
enum HealthCheck {
    /// The path answered.
    static let path = "/health"

    /// The answer to `request` when it asks for the liveness path: 200 `ok` to `GET` and
    /// `HEAD`, 405 to any other method; `nil` for any other path.
    static func response(to request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.path == path else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            var refusal = HTTPServerResponse.refusal(405)
            refusal.headers.append("Allow", "GET, HEAD")
            return refusal
        }
        var response = HTTPServerResponse.text(200, "ok\n")
        response.headers.append("Cache-Control", "no-store")
        return response
    }
}
