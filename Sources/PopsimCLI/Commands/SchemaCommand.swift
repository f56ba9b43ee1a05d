import PopsimCore
import PopsimReports

/// `popsim schema`: the JSON Schema of the scenario format, for editors (docs/scenario-format.md
/// shows how to wire it into VS Code).
enum SchemaCommand {
    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "schema", console: &console) else { return .success }
        if let extra = args.positionals.first { throw PopsimError.usage("schema: unexpected argument \(JSONValue.quoted(extra))") }
        return RunCommand.emit(ScenarioSchema.render(), to: args.value("output"), console: &console)
    }
}
