/// The options of a command, each declared once as a stored property holding a ``Flag``, an
/// ``Option`` or a ``RepeatableOption``.
///
/// ```swift
/// struct Options: OptionGroup {
///     let first = Option<String>("first", "NAME", help: "First name.")
///     let json = SharedOptions.json
/// }
/// ```
///
/// The parser accepts, help lists and completion offers exactly these, in this order
/// (``specs``), and the command reads them by key path: `arguments[\.first]`. Adding an option
/// is adding a property.
protocol OptionGroup: Sendable {
    /// The group with every declaration at its declared value.
    init()
}

extension OptionGroup {
    /// The options declared, in the order of their declarations.
    static var specs: [OptionSpec] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any OptionDeclaration)?.spec }
    }
}

/// The options of a command that has none besides the global ones.
struct NoOptions: OptionGroup {}
