/// `contacts manual [PAGE]`: prints a manual page's roff source, or the names of the pages.
enum ManualCommand: Command {
    static let name = "manual"
    static var positionals: Positionals {
        Positionals(.optional("PAGE", completion: ManualPages.names), expected: "at most one page name")
    }
    static let summary = "Print a manual page as roff (contacts-serve.1), or the list of pages."
    static let discussion = """
        The pages are made from the same table of commands as help, so they say what this
        contacts does. The installer (swift run contacts-install) writes them where man finds
        them; to read one without installing it:
          contacts manual contacts-serve.1 | man -l -
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        guard let name = arguments.positionals.first else {
            context.console.print(lines: ManualPages.names)
            return
        }
        guard let page = ManualPages.page(named: name) else {
            throw CLIError.noInput("no manual page \(name); `contacts manual` lists them")
        }
        context.console.print(String(page.render().dropLast()))
    }
}
