extension StrategyEntry {
    /// A plug-in as a strategy: named `name` (`exec:PATH`), described by its handshake, and run
    /// by a conversation per run (`connect`: a new process, or one that serves many runs).
    ///
    /// A decision the engine refuses (show a popup on screen, hide a hidden one) is the plug-in's
    /// bug: it becomes `RunError.plugin` with the reply that carried it, not `strategyBroke`.
    public static func plugin(name: String, hello: PluginHello,
                              connect: @escaping @Sendable () throws(PluginFailure) -> PluginChannel) -> StrategyEntry {
        var entry = StrategyEntry(name: name, summary: hello.summary.isEmpty ? "plug-in \(hello.name)" : hello.summary, options: hello.options,
                      modelledFields: hello.fields, modelledActions: hello.actions, typeNamer: { "PluginStrategy" },
                      validator: { _ in [] },
                      runner: { (scenario, options, limits) throws(RunError) -> RunResult in
                          let channel: PluginChannel
                          do throws(PluginFailure) {
                              channel = try connect()
                          } catch {
                              throw .plugin(name: name, time: nil, failure: error)
                          }
                          var clean = false
                          defer { channel.close(reusable: clean) }
                          var engine = Engine<PluginStrategy>(scenario: scenario, options: options, limits: limits) {
                              PluginStrategy(world: $0, label: name, hello: hello, channel: channel)
                          }
                          do throws(RunError) {
                              let result = try engine.run()
                              clean = true
                              return result
                          } catch {
                              guard case .strategyBroke(_, let time, let decision) = error else { throw error }
                              throw .plugin(name: name, time: time, failure: PluginFailure(.brokeRule(decision), reply: engine.strategy.lastReply,
                                                                                             answering: engine.strategy.lastSent))
                          }
                      })
        entry.label = StrategySet.pluginLabel(name)
        return entry
    }
}
