import Foundation
@testable import PlainContactsDAV

extension WebBrowser {
    /// A file a form sends.
    struct File {
        var field: String
        var name: String
        var type: String
        var data: Data
    }

    /// Sends a form as `multipart/form-data`, as a browser sends a form with a file input.
    @discardableResult
    func sendMultipart(_ target: String, fields: [(String, String)], files: [File] = []) -> HTTPServerResponse {
        let boundary = "----formboundary7MA4YWxkTrZu0gW"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        for file in files {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\n".utf8))
            body.append(Data("Content-Type: \(file.type)\r\n\r\n".utf8))
            body.append(file.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return send("POST", target, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }
}
