/// A failure of the installer, said in one line.
struct InstallError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
