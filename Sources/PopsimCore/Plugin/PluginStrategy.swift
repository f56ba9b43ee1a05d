/// A strategy that lives in another process, in any language (`--strategy exec:PATH`): popsim
/// keeps the clock, the screen, the checks and the timeline; the plug-in only answers each
/// happening with its decisions (docs/plugin-protocol.md).
///
/// Contract: before the first happening it sends the run's `start`, whose reply may decide
/// nothing; then one line per happening, one reply each. The reply's decisions go to the engine,
/// which checks them like any strategy's; `pending` comes with the reply to `finished`. When the
/// plug-in cannot answer, or answers nonsense, the strategy decides `abort`, and the run stops
/// with `RunError.plugin` naming the instant and the line it was answering.
struct PluginStrategy: Strategy {
    static let name = "exec"
    static let summary = "a strategy in another process"
    static let options: [OptionSpec] = []
    static let buttonActions = ButtonActionTiming.atResponse

    private let label: String
    private let hello: PluginHello?
    private let channel: PluginChannel?
    private var codec: PluginCodec
    private var started = false
    /// The plug-in's failure, once it failed: it is asked nothing more.
    private(set) var failure: RunError?
    private(set) var failed = false
    /// The last line sent (a happening, or the start).
    private(set) var lastSent: [UInt8] = []
    private var line: [UInt8] = []
    /// The last reply, for the message when the engine refuses one of its decisions.
    private(set) var lastReply: [UInt8] = []
    private var pendingList: [PopupID] = []
    /// The number of the last happening line sent (`seq`).
    private var seq = 0
    /// The happenings not sent (`skip`), by `PluginCodec.word`, looked up without hashing.
    private let skipped: [String]
    /// Its `startTimer`s not yet fired: a plug-in answering each timer with thousands more grew
    /// popsim to gigabytes from an 86-byte scenario (issue 30), so their number is bounded.
    private var timersWaiting = 0
    static let maxTimersWaiting = 100_000
    /// A reply's decisions are bounded by its length (`PluginProcess.maxLineBytes`).

    /// Without a channel (the protocol's required initializer): every happening aborts.
    init(world: World) {
        self.init(world: world, label: Self.name, hello: nil, channel: nil)
    }

    init(world: World, label: String, hello: PluginHello?, channel: PluginChannel?) {
        self.label = label
        self.hello = hello
        self.channel = channel
        codec = PluginCodec(world.scenario)
        skipped = hello.map { Array($0.skip) } ?? []
    }

    var traits: StrategyTraits {
        StrategyTraits(name: label, buttonActions: hello?.buttonActions ?? .atResponse, timerAnchor: hello?.timerAnchor ?? .shown,
                       crossFades: hello?.crossFades ?? false, instances: hello?.instances ?? .merge)
    }

    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {
        codec.addInstance(world.popup(instance).name, of: base)
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        guard !failed else { return }
        do throws(PluginFailure) {
            guard let channel else { throw PluginFailure(.notConnected) }
            if !started {
                started = true
                let start = codec.start(world)
                let reply = try exchange(start, channel)
                if !reply.decisions.isEmpty || reply.pending != nil {
                    throw PluginFailure(.decidedAtStart, reply: lastReply, answering: start)
                }
            }
            if !skipped.isEmpty, skipped.contains(PluginCodec.word(happening)) { return }
            seq += 1
            codec.happening(happening, world, seq: seq, into: &line)
            let reply = try exchange(line, channel)
            // A reply that echoes another line's number is out of step (a late or extra line).
            if let echoed = reply.seq, echoed != seq {
                throw PluginFailure(.outOfStep(echoed: echoed, expected: seq), reply: lastReply, answering: line)
            }
            if case .timer = happening { timersWaiting -= 1 }
            for d in reply.decisions {
                if case .startTimer = d { timersWaiting += 1 }
                decisions.append(d)
            }
            if timersWaiting > Self.maxTimersWaiting {
                throw PluginFailure(.tooManyTimers(Self.maxTimersWaiting), answering: line)
            }
            if happening == .finished {
                guard let pending = reply.pending else {
                    throw PluginFailure(.noPendingAtFinished, reply: lastReply, answering: line)
                }
                pendingList = pending
            } else if reply.pending != nil {
                throw PluginFailure(.pendingBeforeFinished, reply: lastReply, answering: line)
            }
        } catch {
            failure = .plugin(name: label, time: world.now, failure: error)
            failed = true
        }
    }

    /// One round trip; a reply that is not a reply names itself and the line it answered.
    private mutating func exchange(_ out: [UInt8], _ channel: PluginChannel) throws(PluginFailure) -> PluginCodec.Reply {
        lastSent = out
        do {
            lastReply = try channel.exchange(out)
        } catch {
            throw error.answering(out)
        }
        do {
            return try codec.reply(lastReply)
        } catch {
            throw PluginFailure(error.problem, reply: lastReply, answering: out)
        }
    }

    func pending(in world: World) -> [PopupID] { pendingList }
}
