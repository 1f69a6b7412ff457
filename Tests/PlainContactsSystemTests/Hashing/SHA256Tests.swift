import Testing

@testable import PlainContactsSystem

@Suite("SHA256")
struct SHA256Tests {
    @Test func emptyMessageMatchesNISTVector() {
        #expect(
            SHA256.hexDigest([UInt8]())
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abcMatchesNISTVector() {
        #expect(
            SHA256.hexDigest(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessageMatchesNISTVector() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(message.utf8.count == 56)
        #expect(
            SHA256.hexDigest(Array(message.utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func eightHundredNinetySixBitMessageMatchesNISTVector() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            SHA256.hexDigest(Array(message.utf8))
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionLetterAMatchesNISTVector() {
        #expect(
            SHA256.hexDigest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "Messages of lengths around the padding and block boundaries",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
            (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
        ])
    func messagesAroundBlockBoundariesHashCorrectly(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA256.hexDigest(message) == expected)
        #expect(SHA256.hexDigest(repeatElement(UInt8(ascii: "a"), count: length)) == expected)
    }

    @Test func nonContiguousSequenceHashesLikeArray() {
        for length in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            let bytes = (0..<length).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(SHA256.hash(bytes) == SHA256.hash(Array(bytes)))
        }
    }

    @Test func digestIsThirtyTwoBytesAndHexIsSixtyFourLowercaseDigits() {
        let digest = SHA256.hash(Array("PlainContacts".utf8))
        #expect(digest.count == 32)
        let hex = SHA256.hexDigest(Array("PlainContacts".utf8))
        #expect(hex.count == 64)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(hex == SHA256.hexString(digest))
    }
}
