import Testing

extension SourceLayersTests {
    /// The reading of Swift sources that the layering tests stand on.
    @Suite struct SwiftCodeTests {
        @Test func commentsAndStringTextAreBlankedInPlace() {
            let string = "\"Person\""
            let lineComment = "// Group"
            let blockComment = "/* Book /* nested */ Index */"
            let code = SwiftCode("let a = \(string) \(lineComment)\n\(blockComment) let b = 1")
            let blanked = { (text: String) in String(repeating: " ", count: text.utf8.count) }
            #expect(code.text == "let a = \(blanked(string)) \(blanked(lineComment))\n\(blanked(blockComment)) let b = 1")
        }

        @Test func multiLineAndRawStringsAreBlanked() {
            let source = #"""
                let a = """
                    Person "quoted" \"""
                    """
                let b = #"Group "inside" \(Book)"#
                let c = ##"Index "# still"##
                let d = "#"
                Model
                """#
            #expect(SwiftCode(source).capitalizedNames == ["Model"])
        }

        @Test func interpolationsAreCode() {
            let code = SwiftCode(##"let a = "\(RecordID.self) and \(f("Person", (Group())))"; let b = #"\#(Book.x)"#"##)
            #expect(code.capitalizedNames == ["RecordID", "Group", "Book"])
        }

        @Test func escapedQuotesDoNotEndAString() {
            #expect(SwiftCode(#"let a = "a \"Person\" \\"; Group"#).capitalizedNames == ["Group"])
        }

        @Test func topLevelTypesAreDeclaredWithTheirModifiersAndAttributes() {
            let code = SwiftCode(
                """
                @usableFromInline final class Book {
                    struct Nested {}
                    class func make() {}
                }
                public enum Kind: String { case a }
                package protocol Owner: AnyObject {}
                actor Worker {}
                typealias Key = String
                extension Person {
                    enum Inner {}
                }
                private struct `Quoted` {}
                """)
            #expect(code.topLevelTypeNames == ["Book", "Kind", "Owner", "Worker", "Key", "Quoted"])
        }

        @Test func namesAfterADotAreMembersNotTypes() {
            #expect(SwiftCode("let a: Outer.Inner = .Case; Person.self").capitalizedNames == ["Outer", "Person"])
        }

        @Test func membersOfExtensionsAreReadWithTheExtendedType() {
            let code = SwiftCode(
                """
                extension String {
                    var trimmed: String { let inner = self; return inner }
                    static func make() -> String { "" }
                }
                extension Person.Kind: Codable { func encode() {} }
                """)
            #expect(code.extensionMembers.map { "\($0.type).\($0.member)" } == ["String.trimmed", "String.make", "Person.encode"])
            #expect(code.declaredNames == ["trimmed", "inner", "make", "encode"])
        }
    }
}
