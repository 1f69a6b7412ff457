import PlainContacts

extension HTTPRequestParser {
    /// Parses a chunk-size line, `chunk-size [ chunk-ext ]`, ignoring the extensions
    /// (RFC 9112 §7.1.1).
    ///
    /// - Parameters:
    ///   - line: The line without its line end.
    ///   - allowance: How many more body bytes the limit allows.
    /// - Returns: The chunk's size; 0 for the last chunk.
    /// - Throws: ``HTTPServerError/Code/badRequest`` when the line does not start with a
    ///   hexadecimal size or has something other than extensions after it;
    ///   ``HTTPServerError/Code/bodyTooLarge`` when the size passes the allowance, however many
    ///   digits it has.
    static func parseChunkSize(_ line: ArraySlice<UInt8>, allowance: Int) throws(HTTPServerError) -> Int {
        let tooLarge = HTTPServerError(.bodyTooLarge, "chunked body over the body limit", status: 413)
        var size = 0
        var position = line.startIndex
        while position < line.endIndex, let digit = HTTPSyntax.hexValue(line[position]) {
            let (shifted, shiftOverflow) = size.multipliedReportingOverflow(by: 16)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(digit)
            if shiftOverflow || sumOverflow { throw tooLarge }
            size = sum
            position += 1
        }
        guard position > line.startIndex else { throw .badRequest("chunk size is not hexadecimal") }
        let rest = HTTPSyntax.trimmed(line[position...])
        guard rest.isEmpty || rest.first == HTTPSyntax.semicolon else {
            throw .badRequest("chunk size followed by something other than an extension")
        }
        guard size <= allowance else { throw tooLarge }
        return size
    }
}
