/// Braze in-app messages (Android `BrazeInAppMessageManager`): a LIFO stack that nothing drains by
/// itself, a minimum interval between triggers that drops, a display-time decision, expiry.
///
/// - Source: semantics/peers.md §4.1; braze-inc/braze-android-sdk `BrazeInAppMessageManager.kt`
///   (04d10e6) and the "Trigger in-app messages" / "In-app message delivery" docs.
/// - An `enqueue` is a trigger delivering the message. Within `cooldownMs` (30 s) of the last
///   display it shows nothing and is not kept (`drop … cooldown`; measured from the last display,
///   [inferred] from an SDK log line). Otherwise the message is pushed on the stack and a display
///   is requested.
/// - A display request (every trigger, and `trigger` = the app's `requestDisplayInAppMessage()`)
///   does nothing while a message is on screen. Otherwise it pops the top of the stack (LIFO) and
///   decides, once: expired (`ttlMs` since its trigger) → `drop … expired`; its `when` fails →
///   the app's `beforeInAppMessageDisplayed` answer, `untriggered: await` = `DISPLAY_LATER` (pushed
///   back, shown at a later request) or `discard` = `DISCARD` (`drop … condition`); otherwise it
///   shows (`DISPLAY_NOW`). Before that, the caps: a message shown `maxShows` times already
///   (lifetime cap; a campaign without re-eligibility is 1), or a display beyond option `dailyCap`
///   in any 24 h (Braze's frequency capping; its docs, not peers.md) → `drop … quota`.
/// - When a message closes, the stack waits for the next request: no automatic drain.
/// - `remove p` takes p off the screen or out of the stack. No clear.
struct BrazeIAMStrategy: Strategy {
    static let name = "braze-iam"
    static let summary = "Braze in-app messages: LIFO stack shown only on request, trigger cooldown, display-time decision, expiry"
    static let options: [OptionSpec] = [
        OptionSpec(name: "cooldownMs", summary: "minimum time between a display and the next trigger, ms",
                   kind: .integer(minimum: 0), defaultValue: .integer(30_000)),
        OptionSpec(name: "dailyCap", summary: "displays allowed in any 24 h (frequency capping; 0: no cap)",
                   kind: .integer(minimum: 0), defaultValue: .integer(0)),
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]
    static let modelledFields: [PopupField] = [.when, .untriggered, .ttlMs, .maxShows]
    static let modelledActions: [ActionKind] = [.trigger, .remove]
    static let buttonActions = ButtonActionTiming.atResponse
    static let showsOnlyWhenAsked = true

    /// One stacked message and the instant of the trigger that delivered it.
    struct Entry {
        var popup: PopupID
        var at: Int
    }

    private let cooldownMs: Int
    /// Frequency capping over every message: one key, a 24 h sliding window.
    private var daily: Pacing?
    private var shows: [Int]
    private var stack: [Entry] = []
    private var current: PopupID?
    private var lastDisplay: Int?

    init(world: World) {
        cooldownMs = world.options.integer("cooldownMs")
        let cap = world.options.integer("dailyCap")
        daily = cap > 0 ? Pacing(windows: [.init(count: cap, windowMs: Self.day)]) : nil
        shows = Array(repeating: 0, count: world.scenario.popups.count)
    }

    static let day = 86_400_000

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            if let last = lastDisplay, world.now - last < cooldownMs {
                decisions.drop(p, .cooldown)
                return
            }
            stack.append(Entry(popup: p, at: world.now))
            requestDisplay(world, &decisions)
        case .trigger:
            requestDisplay(world, &decisions)
        case .gone(let p) where current == p:
            current = nil
        case .remove(let p):
            if current == p, world.isVisibleAndStaying(p) {
                decisions.hide(p, .removed)
            } else if let i = stack.lastIndex(where: { $0.popup == p }) {
                stack.remove(at: i)
                decisions.drop(p, .removed)
            }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { stack.map(\.popup) }

    /// `requestDisplayInAppMessage`: one message from the top, decided once.
    private mutating func requestDisplay(_ world: World, _ decisions: inout Decisions) {
        guard current == nil, let top = stack.last, world.phase(top.popup) == .hidden else { return }
        stack.removeLast()
        let p = top.popup
        if let ttl = world.popup(p).ttlMs, world.now - top.at > ttl {
            decisions.drop(p, .expired)
        } else if let cap = world.popup(p).maxShows, shows[Int(p.index)] >= cap {
            decisions.drop(p, .quota)
        } else if let daily, !daily.allows(at: world.now) {
            decisions.drop(p, .quota)
        } else if !world.conditionHolds(p) {
            if world.traits(p).untriggered == .discard { decisions.drop(p, .condition) } else { stack.append(top) }
        } else {
            current = p
            lastDisplay = world.now
            shows[Int(p.index)] += 1
            daily?.recordShow(at: world.now)
            decisions.show(p)
        }
    }
}
