/// A typed option declaration: ``Flag``, ``Option`` or ``RepeatableOption``.
///
/// A command declares each of its options once, as a stored property of its ``OptionGroup``;
/// the parser, help, the synopsis and shell completion all read the ``spec`` from there.
protocol OptionDeclaration: Sendable {
    /// What the parser, help and completion know of the option.
    var spec: OptionSpec { get }
}
