import Mustache
import XCTest

/// Bad templates fail to compile with the line and column (in characters) of the tag at fault.
final class TemplateErrorTests: XCTestCase {
    func compileError(_ text: String) -> TemplateError? {
        do {
            _ = try Template(text, name: "template.mustache")
            return nil
        } catch { return error }
    }

    func testUnclosedSectionIsReportedAtItsOpeningTag() {
        let e = compileError("a\nb\nc = {{#foo}}\n{{x}}\n")
        XCTAssertEqual(e?.description, "template.mustache:3:5: error: unclosed section 'foo'")
        XCTAssertEqual(
            e?.rendered, "template.mustache:3:5: error: unclosed section 'foo'\nc = {{#foo}}\n    ^")
    }

    /// Sections (and parents, blocks and inverted sections) nest at most 256 deep: 5,000 made the
    /// parser's and renderer's recursion overflow the stack (`livery export` crashed).
    func testSectionsNestedTooDeepAreAnErrorAtTheFirstOnePastTheBound() {
        let deep = String(repeating: "{{#a}}", count: 5000) + "x" + String(repeating: "{{/a}}", count: 5000)
        // The 257th opening tag starts after 256 tags of 6 characters: column 1537.
        XCTAssertEqual(
            compileError(deep)?.description,
            "template.mustache:1:1537: error: sections nested more than 256 deep")
        let within = String(repeating: "{{#a}}", count: 256) + "x" + String(repeating: "{{/a}}", count: 256)
        XCTAssertNil(compileError(within))
        let inverted = String(repeating: "{{^a}}", count: 300) + String(repeating: "{{/a}}", count: 300)
        XCTAssertEqual(
            compileError(inverted)?.description,
            "template.mustache:1:1537: error: sections nested more than 256 deep")
    }

    func testMismatchedClosingTagNamesBothTags() {
        XCTAssertEqual(
            compileError("{{#a}}\n  {{/b}}")?.description,
            "template.mustache:2:3: error: closing tag 'b' does not match the open section 'a' (opened at 1:1)"
        )
    }

    func testClosingTagWithNothingOpen() {
        XCTAssertEqual(
            compileError("é {{/b}}")?.description,
            "template.mustache:1:3: error: closing tag 'b' with no open section")
    }

    func testUnclosedTag() {
        XCTAssertEqual(
            compileError("x {{name")?.description, "template.mustache:1:3: error: unclosed tag: no '}}'")
        XCTAssertEqual(
            compileError("{{{name}}")?.description, "template.mustache:1:1: error: unclosed tag: no '}}}'")
    }

    func testBadDelimitersAndEmptyTags() {
        XCTAssertEqual(
            compileError("{{=<%=}}")?.description,
            "template.mustache:1:1: error: a set-delimiter tag holds two delimiters, as in {{=<% %>=}}")
        XCTAssertEqual(compileError("{{ }}")?.description, "template.mustache:1:1: error: empty tag")
        XCTAssertEqual(
            compileError("{{<p}}{{$b}}")?.description, "template.mustache:1:7: error: unclosed block 'b'")
    }

    /// The five characters the tinted-theming builder's engine escapes, `'` as `&#39;`.
    func testEscapingOfTheFiveHTMLCharacters() throws {
        let t = try Template("{{v}}|{{{v}}}|{{&v}}")
        XCTAssertEqual(
            try t.render(["v": "a&b<c>d\"e'f"]), "a&amp;b&lt;c&gt;d&quot;e&#39;f|a&b<c>d\"e'f|a&b<c>d\"e'f")
    }

    func testOneCompiledTemplateRendersManyTimes() throws {
        let t = try Template("{{#xs}}{{.}},{{/xs}}{{^xs}}none{{/xs}}")
        XCTAssertEqual(try t.render(["xs": ["1", "2"]]), "1,2,")
        XCTAssertEqual(try t.render(["xs": []]), "none")
        XCTAssertEqual(try t.render(["xs": ""]), "none")
    }

    func testLimitsEndARunawayRender() throws {
        let t = try Template("{{>p}}")
        let p = try Template("x{{>p}}")
        XCTAssertThrowsError(try t.render([:], partials: ["p": p]))
        let wide = try Template("{{#a}}{{#a}}{{#a}}{{#a}}xxxxxxxx{{/a}}{{/a}}{{/a}}{{/a}}")
        let many = MustacheValue.list(Array(repeating: true, count: 100))
        XCTAssertThrowsError(
            try wide.render(["a": many], limits: Template.Limits(output: 1 << 20, steps: 1 << 30, depth: 10)))
    }
}
