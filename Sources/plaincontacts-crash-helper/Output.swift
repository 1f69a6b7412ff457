import Glibc

/// Writes `text` and a newline to a file descriptor at once, so that a reader sees whole lines.
func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    var bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { buffer in
            write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno != EINTR {
            return
        }
    }
}
