import Testing
@testable import PlainContacts

@Suite struct ICalendarTextTests {
    private func folded(_ line: String) -> [[UInt8]] {
        var text: [UInt8] = []
        ICalendarText.appendLine(line, to: &text)
        #expect(text.suffix(2) == [0x0D, 0x0A])
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < text.count {
            if text[index] == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(text[index])
                index += 1
            }
        }
        return lines
    }

    @Test func textEscapesBackslashesSemicolonsCommasAndLineBreaks() {
        #expect(ICalendarText.escape(#"Bell, Katie; "K" \ Jr."#) == #"Bell\, Katie\; "K" \\ Jr."#)
        #expect(ICalendarText.escape("one\r\ntwo\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICalendarText.escape("tab\there\u{07}bell\u{7F}") == "tab\there" + "bell")
    }

    @Test func aShortLineIsOneLineWithCRLF() {
        #expect(folded("SUMMARY:Katie") == [Array("SUMMARY:Katie".utf8)])
        #expect(folded(String(repeating: "a", count: 75)).count == 1)
    }

    @Test func longLinesFoldAtSeventyFiveOctetsWithALeadingSpace() {
        let line = "SUMMARY:" + String(repeating: "x", count: 200)
        let lines = folded(line)
        #expect(lines.map(\.count) == [75, 75, 60])
        #expect(lines.dropFirst().allSatisfy { $0.first == 0x20 })
        #expect(String(decoding: lines[0] + lines.dropFirst().flatMap { $0.dropFirst() }, as: UTF8.self) == line)
    }

    @Test(arguments: ["é", "日", "😀"])
    func foldsNeverSplitAUTF8Sequence(_ character: String) {
        for offset in 0..<4 {
            let line = "SUMMARY:" + String(repeating: "a", count: offset) + String(repeating: character, count: 60)
            let lines = folded(line)
            #expect(lines.allSatisfy { $0.count <= 75 })
            for physical in lines {
                #expect(String(validating: physical, as: UTF8.self) != nil)
            }
            #expect(String(decoding: lines[0] + lines.dropFirst().flatMap { $0.dropFirst() }, as: UTF8.self) == line)
        }
    }
}
