import FoundationEssentials

/// Recognizes common image formats by their first bytes, to name sidecar files.
enum ImageFormat {
    /// The file extension for image bytes: jpg, png, gif, webp, heic, tiff, bmp, or bin when
    /// the format is not recognized.
    static func fileExtension(of data: Data) -> String {
        let bytes = [UInt8](data.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if starts(Array("GIF8".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "webp" }
        if starts(Array("ftyp".utf8), at: 4) {
            if starts(Array("heic".utf8), at: 8) || starts(Array("heix".utf8), at: 8) || starts(Array("mif1".utf8), at: 8) {
                return "heic"
            }
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "tiff" }
        if starts(Array("BM".utf8)) { return "bmp" }
        return "bin"
    }
}
