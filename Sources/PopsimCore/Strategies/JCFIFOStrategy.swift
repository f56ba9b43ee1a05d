/// JCPresentQueue in FIFO mode: one serial chain, the next popup presents when the previous is gone.
///
/// - Source: seed 000; RichDaddyCashMany/JCPresentQueue HEAD 244d0dc (pod 1.1.4), semantics/seeds.md §1.2.
/// - Queue order: arrival order; a request from a button's handler queues behind everything waiting.
/// - Preemption: none; exactly one popup on screen, presents are serialized.
/// - Conditions: none (no conditions, suspend, remove or clear).
/// - Timing: the next present starts at the previous popup's `gone`, with no extra delay; the only
///   costs are the present (400 ms) and dismiss (200 ms) animations of JCAlertController.
///   Button actions run after the alert is gone, as UIAlertController runs its handlers.
struct JCFIFOStrategy: Strategy {
    static let name = "jc-fifo"
    static let summary = "JCPresentQueue FIFO: strict arrival order, next present after the previous is gone"
    static let options: [OptionSpec] = [.showMs(default: 400), .hideMs(default: 200), .navMs]
    static let buttonActions = ButtonActionTiming.atGone

    /// Requests whose operation has not started, oldest first.
    private var waiting = Deque<PopupID>()
    /// The popup whose operation runs: presented and not yet gone.
    private var current: PopupID?

    init(world: World) {}

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            waiting.append(p)
        case .gone(let p) where p == current:
            current = nil
        default:
            return
        }
        if current == nil, let next = waiting.popFirst() {
            current = next
            decisions.show(next)
        }
    }

    func pending(in world: World) -> [PopupID] { waiting.elements }
}
