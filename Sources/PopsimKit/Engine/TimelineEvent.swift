/// The kinds of timeline lines, as design.md §6 names them.
public enum TimelineEvent: String, Sendable, CaseIterable {
    case enqueue, show, shown, hide, gone, requeue, drop, suspend, resume, nav, warning
}
