/// A key pressed on the terminal in raw mode.
enum Key: Equatable {
    /// A printable character.
    case character(Character)
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    case enter
    case escape
    case backspace
    /// Control-C.
    case interrupt
    /// Control-D.
    case endOfInput
    /// Control-U: erase the line.
    case eraseLine
    /// Any other key or sequence.
    case other
}
