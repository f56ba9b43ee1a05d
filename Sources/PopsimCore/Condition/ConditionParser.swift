/// Parses and type-checks the condition language of design.md §3.
///
/// Grammar (lowest precedence first): `or := and ('||' and)*`, `and := cmp ('&&' cmp)*`,
/// `cmp := unary (op unary)?` with `op` one of `== != < <= > >=` (not chained),
/// `unary := '!' unary | primary`, `primary := literal | name | '(' or ')'`.
/// Contract: `==`/`!=` need operands of one type; ordering needs integers; `&&`, `||`, `!` and the
/// whole condition need booleans. Nesting (parentheses and `!`) is bounded by `maxDepth`, so any
/// input gives a result or an error, never a stack overflow. There is no way to call anything.
public struct ConditionParser {
    public static let maxDepth = 32
    /// Operands of one `&&` or `||` chain at most (a longer one is an error at its place).
    public static let maxChain = 1000

    /// A problem in the expression, at a byte offset into its text.
    public struct Failure: Error, Equatable, Sendable {
        public var offset: Int
        public var message: String
        /// The unknown state name the message is about, so the caller can add a hint (it holds
        /// the index of names; the parser does not search them).
        public var unknownName: String?

        public init(offset: Int, message: String, unknownName: String? = nil) {
            self.offset = offset
            self.message = message
            self.unknownName = unknownName
        }
    }

    public static func parse(_ text: String, schema: StateSchema) throws(Failure) -> Condition {
        var parser = ConditionParser(text: Array(text.utf8), schema: schema)
        let (condition, type, start) = try parser.disjunction(depth: 0)
        parser.skipSpaces()
        if parser.position < parser.text.count {
            throw Failure(offset: parser.position, message: "expected an operator or the end of the condition, got \(parser.describeToken())")
        }
        guard type == .boolean else {
            throw Failure(offset: start, message: "expected a condition that is true or false, got \(type)")
        }
        return condition
    }

    let text: [UInt8]
    let schema: StateSchema
    var position = 0

    typealias Typed = (Condition, StateType, Int)

    mutating func disjunction(depth: Int) throws(Failure) -> Typed {
        try logical("||", depth: depth, operand: { (p: inout ConditionParser, d: Int) throws(Failure) -> Typed in
            try p.conjunction(depth: d)
        }, combine: { .or($0) })
    }

    mutating func conjunction(depth: Int) throws(Failure) -> Typed {
        try logical("&&", depth: depth, operand: { (p: inout ConditionParser, d: Int) throws(Failure) -> Typed in
            try p.comparison(depth: d)
        }, combine: { .and($0) })
    }

    /// A chain of one boolean operator over the next-tighter level, read in a loop into one node.
    mutating func logical(_ op: String, depth: Int,
                          operand: (inout ConditionParser, Int) throws(Failure) -> Typed,
                          combine: ([Condition]) -> Condition) throws(Failure) -> Typed {
        let first = try operand(&self, depth)
        var operands = [first.0]
        while consume(op) {
            if operands.count >= Self.maxChain {
                throw Failure(offset: position - op.utf8.count, message: "more than \(Self.maxChain) operands joined by '\(op)'")
            }
            let right = try operand(&self, depth)
            if operands.count == 1 { try requireBoolean(first, op) }
            try requireBoolean(right, op)
            operands.append(right.0)
        }
        return operands.count == 1 ? first : (combine(operands), .boolean, first.2)
    }

    mutating func comparison(depth: Int) throws(Failure) -> Typed {
        let left = try unary(depth: depth)
        skipSpaces()
        let opStart = position
        guard let op = comparisonOperator() else { return left }
        let right = try unary(depth: depth)
        if left.1 != right.1 {
            throw Failure(offset: opStart, message: "cannot compare \(left.1) with \(right.1) using '\(op.rawValue)'")
        }
        if op.isOrdering && left.1 != .integer {
            throw Failure(offset: opStart, message: "'\(op.rawValue)' compares integers, got \(left.1)")
        }
        skipSpaces()
        if comparisonOperatorAhead() {
            throw Failure(offset: position, message: "comparisons cannot be chained; use '&&'")
        }
        return (.compare(op, left.0, right.0), .boolean, left.2)
    }

    mutating func unary(depth: Int) throws(Failure) -> Typed {
        skipSpaces()
        let start = position
        if peek("!") && !peek("!=") {
            try enter(depth)
            position += 1
            let operand = try unary(depth: depth + 1)
            try requireBoolean(operand, "!")
            return (.not(operand.0), .boolean, start)
        }
        return try primary(depth: depth)
    }

    mutating func primary(depth: Int) throws(Failure) -> Typed {
        skipSpaces()
        let start = position
        guard position < text.count else {
            throw Failure(offset: position, message: "expected a value, got the end of the condition")
        }
        let c = text[position]
        if c == UInt8(ascii: "(") {
            try enter(depth)
            position += 1
            let inner = try disjunction(depth: depth + 1)
            skipSpaces()
            guard consume(")") else {
                throw Failure(offset: position, message: "expected ')', got \(describeToken())")
            }
            return (inner.0, inner.1, start)
        }
        if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
            return (.literal(.string(try stringLiteral(quote: c))), .string, start)
        }
        if c == UInt8(ascii: "-") || isDigit(c) {
            return (.literal(.integer(try integerLiteral())), .integer, start)
        }
        if isNameStart(c) {
            let name = identifier()
            if name == "true" { return (.literal(.boolean(true)), .boolean, start) }
            if name == "false" { return (.literal(.boolean(false)), .boolean, start) }
            guard let id = schema.lookup(name) else {
                throw Failure(offset: start, message: "unknown state name \(JSONValue.quoted(name))", unknownName: name)
            }
            return (.variable(id), schema.initial[id.index].type, start)
        }
        throw Failure(offset: position, message: "expected a value, got \(describeToken())")
    }

    mutating func enter(_ depth: Int) throws(Failure) {
        if depth >= Self.maxDepth {
            throw Failure(offset: position, message: "nesting deeper than \(Self.maxDepth) levels")
        }
    }

    func requireBoolean(_ operand: Typed, _ op: String) throws(Failure) {
        if operand.1 != .boolean {
            throw Failure(offset: operand.2, message: "'\(op)' needs true or false, got \(operand.1)")
        }
    }

    mutating func stringLiteral(quote: UInt8) throws(Failure) -> String {
        let start = position
        position += 1
        let bodyStart = position
        while position < text.count, text[position] != quote { position += 1 }
        guard position < text.count else {
            throw Failure(offset: start, message: "unterminated string literal")
        }
        let body = String(decoding: text[bodyStart..<position], as: UTF8.self)
        position += 1
        return body
    }

    mutating func integerLiteral() throws(Failure) -> Int {
        let start = position
        if text[position] == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while position < text.count, isDigit(text[position]) { position += 1 }
        if position == digitsStart {
            throw Failure(offset: start, message: "expected a digit after '-'")
        }
        if position < text.count, text[position] == UInt8(ascii: ".") {
            throw Failure(offset: start, message: "numbers in conditions are integers")
        }
        let literal = String(decoding: text[start..<position], as: UTF8.self)
        guard let value = Int(literal) else {
            throw Failure(offset: start, message: "integer \(literal) is out of range")
        }
        return value
    }

    mutating func identifier() -> String {
        let start = position
        while position < text.count, isNameStart(text[position]) || isDigit(text[position]) { position += 1 }
        return String(decoding: text[start..<position], as: UTF8.self)
    }

    mutating func comparisonOperator() -> ComparisonOperator? {
        for op in ["==", "!=", "<=", ">=", "<", ">"] where consume(op) {
            return ComparisonOperator(rawValue: op)
        }
        return nil
    }

    func comparisonOperatorAhead() -> Bool {
        ["==", "!=", "<", ">"].contains { peek($0) }
    }

    mutating func skipSpaces() {
        while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
    }

    func peek(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard position + bytes.count <= text.count else { return false }
        return Array(text[position..<(position + bytes.count)]) == bytes
    }

    mutating func consume(_ token: String) -> Bool {
        skipSpaces()
        guard peek(token) else { return false }
        position += token.utf8.count
        return true
    }

    func describeToken() -> String {
        guard position < text.count else { return "the end of the condition" }
        if text[position] == UInt8(ascii: "=") && !peek("==") { return "'=' (use '==' to compare)" }
        var end = position
        if isNameStart(text[end]) || isDigit(text[end]) {
            while end < text.count, isNameStart(text[end]) || isDigit(text[end]) { end += 1 }
        } else {
            end += 1
            while end < text.count, text[end] >= 0x80 && text[end] < 0xC0 { end += 1 }
        }
        return "'" + String(decoding: text[position..<end], as: UTF8.self) + "'"
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || c == UInt8(ascii: "_")
    }
}
