/// JCPresentQueue in LIFO mode: the newest request pushes the shown popup off screen for a while.
///
/// - Source: seed 000; RichDaddyCashMany/JCPresentQueue HEAD 244d0dc (pod 1.1.4), semantics/seeds.md §1.3–1.6.
/// - Queue order: a global stack in first-request order (a popup already in it is not added again),
///   and a serial chain of operations that ends each one at its popup's present completion.
/// - Preemption: every arrival waits for the current present to finish (`shown`), then hides the
///   shown popup (reason `temporary`: no `then`, no dismissal seen) and presents itself when that
///   hide is `gone`.
/// - Re-presentation: 10 ms (δ, HEAD) after a user dismissal is `gone`, the dismissed popup leaves
///   the stack; if it was the top, the new top is requested again; otherwise every popup above it
///   is requested again in stack order. Requests made meanwhile (stack above one, something
///   dismissing) finish without presenting and are picked up by that follow-up.
/// - Hazard reproduced: a request whose operation starts while the shown popup is in its user
///   dismissal animation asks UIKit to dismiss it twice; UIKit refuses, the chain never resumes
///   (semantics §1.6, marked unsure there). popsim logs `warning stalled` and shows nothing more.
/// - Conditions: none (no conditions, suspend, remove or clear).
struct JCLIFOStrategy: Strategy {
    static let name = "jc-lifo"
    static let summary = "JCPresentQueue LIFO: newest first, the shown popup hides until the newer ones are dismissed"
    static let options: [OptionSpec] = [.showMs(default: 400), .hideMs(default: 200), .navMs]
    static let buttonActions = ButtonActionTiming.atGone
    /// δ: the delay between a user dismissal's end and the follow-up (0.01 s since 2018-05-11).
    static let representDelay = 10

    /// What the operation at the head of the chain waits for.
    private enum Operation: Equatable {
        /// The shown popup is leaving for a while; then `popup` presents.
        case temporaryHide(of: PopupID, then: PopupID)
        /// `popup` is presenting; the operation ends at its present completion.
        case presenting(PopupID)
        /// The chain is blocked for good.
        case stalled
    }

    private var stack: [PopupID] = []
    /// Which popups are in `stack` (membership in O(1): a burst of arrivals stays linear).
    private var inStack: PopupCounts
    private var operations = Deque<PopupID>()
    private var running: Operation?
    /// The popup the presenter shows (from its `show` until its `gone`).
    private var presented: PopupID?
    /// Popups whose follow-up is due δ after their dismissal: the library's `dismissing` flag.
    private var dismissing: [PopupID] = []

    init(world: World) { inStack = PopupCounts(popups: world.scenario.popups.count) }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            if inStack.contains(p) { decisions.drop(p, .duplicate) }
            request(p)
        case .shown(let p):
            if running == .presenting(p) { running = nil }
        case .gone(let p):
            gone(p, decisions: &decisions)
        case .timer(let token):
            followUp(after: PopupID(token))
        default:
            return
        }
        pump(world, decisions: &decisions)
    }

    private mutating func request(_ p: PopupID) {
        if !inStack.contains(p) {
            stack.append(p)
            inStack.add(p)
        }
        operations.append(p)
    }

    private mutating func gone(_ p: PopupID, decisions: inout Decisions) {
        if presented == p { presented = nil }
        if case .temporaryHide(of: p, let next) = running {
            presented = next
            running = .presenting(next)
            decisions.show(next)
            return
        }
        // A real dismissal: the swizzled viewDidDisappear hook flags it and schedules the follow-up.
        dismissing.append(p)
        decisions.startTimer(after: Self.representDelay, token: Int(p.index))
    }

    private mutating func followUp(after p: PopupID) {
        if let i = dismissing.firstIndex(of: p) { dismissing.remove(at: i) }
        guard inStack.contains(p), let i = stack.lastIndex(of: p) else { return }
        inStack.remove(p)
        if i == stack.count - 1 {
            stack.removeLast()
            if let below = stack.last { request(below) }
        } else {
            let above = Array(stack[(i + 1)...])
            stack.remove(at: i)
            for q in above { request(q) }
        }
    }

    /// Starts operations while the chain is free.
    private mutating func pump(_ world: World, decisions: inout Decisions) {
        while running == nil, let p = operations.popFirst() {
            if stack.count > 1 && !dismissing.isEmpty && stack.contains(where: { dismissing.contains($0) }) {
                continue  // finishes at once; the pending follow-up will present it
            }
            if let x = presented {
                if world.phase(x) == .hiding {
                    running = .stalled
                    decisions.warn(p, .stalled)
                    return
                }
                running = .temporaryHide(of: x, then: p)
                decisions.hide(x, .temporary)
            } else {
                presented = p
                running = .presenting(p)
                decisions.show(p)
            }
        }
    }

    func pending(in world: World) -> [PopupID] {
        stack.filter { world.phase($0) == .hidden }
    }
}
