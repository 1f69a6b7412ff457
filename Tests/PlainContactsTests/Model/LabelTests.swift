import Testing
@testable import PlainContacts

@Suite struct LabelTests {
    @Test func predefinedLabelsAreStoredAsPlainWords() {
        #expect(Label.mobile.rawValue == "mobile")
        #expect(Label.iPhone.rawValue == "iPhone")
        #expect(Label.homeFax.rawValue == "homeFax")
        #expect(Label.homePage.rawValue == "homePage")
        #expect(Label.anniversary.rawValue == "anniversary")
        #expect(Label.predefined.count == 23)
        #expect(Label.predefined.allSatisfy { !$0.rawValue.contains("_$!<") })
    }

    @Test func everyPredefinedLabelHasADisplayName() {
        for label in Label.predefined {
            #expect(label.isPredefined)
            #expect(!label.localizedName.isEmpty)
        }
        #expect(Label.workFax.localizedName == "work fax")
    }

    @Test func customLabelsAreKeptVerbatim() {
        let label: Label = "Boat phone"
        #expect(!label.isPredefined)
        #expect(label.localizedName == "Boat phone")
        #expect(label == Label("Boat phone"))
    }
}
