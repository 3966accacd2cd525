/// A template that cannot be compiled: where (1-based line and column, in characters) and why.
public struct TemplateError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The template's name as given to `Template.init` (a file name, usually).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// What is wrong, for people.
    public var message: String
    /// The text of the line the error is on, without its line ending.
    public var sourceLine: String

    /// `file:line:column: error: message`, as a compiler says it.
    public var description: String { "\(file):\(line):\(column): error: \(message)" }

    /// The description, then the line and a caret under the column.
    public var rendered: String {
        let pad = sourceLine.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
        return description + "\n" + sourceLine + "\n" + pad + "^"
    }

    /// Makes the error for byte `offset` of `source`.
    init(_ message: String, at offset: Int, in source: [UInt8], file: String) {
        var lineStart = 0
        var line = 1
        for i in 0..<min(offset, source.count) where source[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        var lineEnd = lineStart
        while lineEnd < source.count, source[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        if lineEnd > lineStart, source[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let before = source[lineStart..<min(max(offset, lineStart), source.count)]
        // Columns count characters: UTF-8 continuation bytes do not start one.
        self.column = 1 + before.filter { $0 & 0xC0 != 0x80 }.count
        self.line = line
        self.file = file
        self.message = message
        self.sourceLine = String(decoding: source[lineStart..<lineEnd], as: UTF8.self)
    }
}

/// A render that went past its limits (`Template.Limits`): a template or data that would
/// write too much or nest too deeply.
public struct RenderError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Which limit was passed.
    public var message: String
    /// `error: message`.
    public var description: String { "error: \(message)" }
}
