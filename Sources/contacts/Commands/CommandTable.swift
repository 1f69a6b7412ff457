/// Every command of `contacts`, in the order help lists them.
///
/// A new command is one file under `Commands/` and one line here.
enum CommandTable {
    static var commands: [any Command.Type] {
        [
            InitCommand.self,
            GitSetupCommand.self,
            MergeDriverCommand.self,
            TextconvCommand.self,
            AddCommand.self,
            NewCommand.self,
            ShowCommand.self,
            ListCommand.self,
            SearchCommand.self,
            EmailCommand.self,
            PickCommand.self,
            SetCommand.self,
            EditCommand.self,
            RemoveCommand.self,
            GroupCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            ResolveCommand.self,
            DuplicatesCommand.self,
            BirthdaysCommand.self,
            MergeCommand.self,
            LogCommand.self,
            WatchCommand.self,
            DoctorCommand.self,
            AccessCommand.self,
            RemoteCommand.self,
            SyncCommand.self,
            ServeCommand.self,
            UserCommand.self,
            CompletionCommand.self,
            ManualCommand.self,
            HelpCommand.self,
        ]
    }

    /// The command named `name` among `commands`.
    static func command(named name: String, in commands: [any Command.Type] = commands) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }
}
