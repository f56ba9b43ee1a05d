/// Where a candidate and production part for one user: the first show that differs, numbered
/// from 1, with what each side showed there (nil: nothing more). Times count from the user's
/// first row, as in the scenario `replay --save` writes for the user.
public struct FitMiss: Sendable, Equatable {
    public struct Show: Sendable, Equatable {
        public var popup: String
        public var ms: Int

        public init(popup: String, ms: Int) {
            self.popup = popup
            self.ms = ms
        }
    }

    public var user: ReplayTally.UserRef
    public var index: Int
    public var production: Show?
    public var model: Show?
    /// The run stopped as a runaway (no shows compared).
    public var unsettled = false

    public init(user: ReplayTally.UserRef, index: Int, production: Show?, model: Show?, unsettled: Bool = false) {
        self.user = user
        self.index = index
        self.production = production
        self.model = model
        self.unsettled = unsettled
    }

    /// How many disagreeing users a result names.
    public static let named = 5
}
