#!/usr/bin/python3
"""Checks the size limits of Livery's product code (Sources/**.swift).

The limits:
- no file over 700 lines;
- no function over 120 lines: a `func`, `init`, `deinit` or `subscript` measured from the line of
  its keyword to the line of its body's closing brace, and likewise a `var` or `let` whose
  declaration opens a brace on its first line (a computed property with its accessors, a
  property observer, a closure-bodied constant);
- at most 3 functions over 80 lines, each of them marked by a comment of the form
  `// limits: <why this function stays long>` (the comment's first word) in the comment block right above its declaration
  (meant for timed inner loops that a call would slow down); a marker on a function that is not
  over 80 lines is reported too, so that no marker outlives its reason.

Braces are matched on a token stream without comments and string literals (interpolations,
multi-line and raw strings included), so a brace in a string or a comment never counts.

Each violation is printed as `path:line: name, N lines` (and a reason); the exit status is 1 when
there is one.

Usage: scripts/check-limits.py [ROOT]
"""

import os
import sys

MAX_FILE_LINES = 700
MAX_FUNCTION_LINES = 120
LONG_FUNCTION_LINES = 80
MAX_LONG_FUNCTIONS = 3
MARKER = "limits:"

DECLARATION_KEYWORDS = {"func", "init", "deinit", "subscript"}
TYPE_KEYWORDS = {"struct", "class", "enum", "extension", "actor", "protocol"}
# Words that cannot stand in a declaration's header outside parentheses: meeting one means the
# declaration has no body (a protocol requirement, an external declaration).
HEADER_STOPS = DECLARATION_KEYWORDS | TYPE_KEYWORDS | {"var", "let", "case", "typealias", "import"}
# Tokens that may stand before `var`/`let` in a declaration (rather than in a condition).
MODIFIERS = {
    "static", "class", "private", "fileprivate", "internal", "package", "public", "open",
    "final", "lazy", "weak", "unowned", "override", "nonisolated", "mutating", "nonmutating",
    "dynamic", "required", "convenience", "indirect",
}


class Token:
    __slots__ = ("text", "line", "kind")

    def __init__(self, text, line, kind):
        self.text = text
        self.line = line
        self.kind = kind  # "id", "punct", "string", "attr"


class Lexer:
    """Splits Swift source into identifiers, punctuation and whole string literals; drops
    comments. Keeps the comments' text per line for the marker check."""

    def __init__(self, text):
        self.s = text
        self.i = 0
        self.line = 1
        self.tokens = []
        self.comments = {}  # line -> comment text on that line

    def run(self):
        self.lex(until_close_paren=False)
        return self.tokens

    def advance(self, n=1):
        for _ in range(n):
            if self.i < len(self.s) and self.s[self.i] == "\n":
                self.line += 1
            self.i += 1

    def lex(self, until_close_paren):
        """Lexes tokens; when until_close_paren, stops after the `)` closing an interpolation."""
        s = self.s
        depth = 0
        while self.i < len(s):
            c = s[self.i]
            if c == "\n" or c in " \t\r":
                self.advance()
            elif s.startswith("//", self.i):
                end = s.find("\n", self.i)
                end = len(s) if end < 0 else end
                self.comments.setdefault(self.line, "")
                self.comments[self.line] += s[self.i:end]
                self.i = end
            elif s.startswith("/*", self.i):
                self.block_comment()
            elif c == '"' or (c == "#" and self.raw_string_ahead()):
                start_line = self.line
                self.string()
                self.tokens.append(Token('""', start_line, "string"))
            elif c.isalpha() or c == "_" or c == "`":
                j = self.i + 1
                if c == "`":
                    j = s.index("`", j) + 1
                else:
                    while j < len(s) and (s[j].isalnum() or s[j] == "_"):
                        j += 1
                self.tokens.append(Token(s[self.i:j], self.line, "id"))
                self.i = j
            elif c == "@":
                j = self.i + 1
                while j < len(s) and (s[j].isalnum() or s[j] == "_"):
                    j += 1
                self.tokens.append(Token(s[self.i:j], self.line, "attr"))
                self.i = j
            elif c.isdigit():
                j = self.i + 1
                while j < len(s) and (s[j].isalnum() or s[j] in "_."):
                    if s[j] == "." and not (j + 1 < len(s) and s[j + 1].isdigit()):
                        break
                    j += 1
                self.tokens.append(Token(s[self.i:j], self.line, "number"))
                self.i = j
            else:
                if until_close_paren:
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        if depth == 0:
                            self.advance()
                            return
                        depth -= 1
                self.tokens.append(Token(c, self.line, "punct"))
                self.advance()

    def raw_string_ahead(self):
        j = self.i
        while j < len(self.s) and self.s[j] == "#":
            j += 1
        return j < len(self.s) and self.s[j] == '"'

    def block_comment(self):
        s = self.s
        nesting = 0
        while self.i < len(s):
            if s.startswith("/*", self.i):
                nesting += 1
                self.advance(2)
            elif s.startswith("*/", self.i):
                nesting -= 1
                self.advance(2)
                if nesting == 0:
                    return
            else:
                self.advance()

    def string(self):
        s = self.s
        hashes = 0
        while s[self.i] == "#":
            hashes += 1
            self.advance()
        multiline = s.startswith('"""', self.i)
        self.advance(3 if multiline else 1)
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        saved = self.tokens
        while self.i < len(s):
            if s.startswith(escape, self.i):
                self.advance(len(escape))
                if self.i < len(s) and s[self.i] == "(":
                    # An interpolation: its tokens do not belong to the declaration's stream.
                    self.advance()
                    self.tokens = []
                    self.lex(until_close_paren=True)
                    self.tokens = saved
                else:
                    self.advance()
            elif s.startswith(closing, self.i):
                self.advance(len(closing))
                return
            else:
                self.advance()


class Measured:
    def __init__(self, path, line, name, lines, marked):
        self.path = path
        self.line = line
        self.name = name
        self.lines = lines
        self.marked = marked


def matching_braces(tokens):
    """Index of the closing brace of every opening one."""
    match = {}
    stack = []
    for k, t in enumerate(tokens):
        if t.kind != "punct":
            continue
        if t.text == "{":
            stack.append(k)
        elif t.text == "}" and stack:
            match[stack.pop()] = k
    return match


def type_scopes(tokens, match):
    """For every token index, the qualified name of the innermost type around it."""
    names = [""] * len(tokens)
    spans = []
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if (t.kind == "id" and t.text in TYPE_KEYWORDS and not (k > 0 and tokens[k - 1].text == ".")
                and k + 1 < len(tokens) and tokens[k + 1].text not in MODIFIERS | DECLARATION_KEYWORDS | {"var", "let"}):
            parts = []
            j = k + 1
            while j < len(tokens) and tokens[j].kind == "id":
                parts.append(tokens[j].text)
                if j + 1 < len(tokens) and tokens[j + 1].text == ".":
                    j += 2
                else:
                    break
            # The body is the first `{` after the name (generic clauses and conformances have none).
            b = j
            while b < len(tokens) and tokens[b].text not in ("{", "}", ";"):
                b += 1
            if parts and b < len(tokens) and tokens[b].text == "{" and b in match:
                spans.append((b, match[b], ".".join(parts)))
        k += 1
    for start, end, name in spans:  # outer spans come first, so inner names overwrite them
        for j in range(start, end + 1):
            names[j] = name if not names[j] or "." in name else names[j] + "." + name
    return names


def body_of(tokens, k, match, same_line_only):
    """Index of the opening brace of the body of the declaration whose keyword is at k, or None."""
    depth = 0
    j = k + 1
    while j < len(tokens):
        t = tokens[j]
        if t.kind == "punct":
            if t.text in "([":
                depth += 1
            elif t.text in ")]":
                depth -= 1
            elif depth == 0 and t.text == "{":
                return j if j in match else None
            elif depth == 0 and t.text in "};":
                return None
        elif depth == 0 and t.kind == "attr":
            return None  # the next declaration's attribute: this one has no body
        elif depth == 0 and t.kind == "id" and t.text in HEADER_STOPS:
            return None
        if same_line_only and depth == 0 and j + 1 < len(tokens) and tokens[j + 1].line != t.line:
            return None
        j += 1
    return None


def declaration_name(tokens, k):
    kw = tokens[k].text
    if kw in ("init", "deinit", "subscript"):
        return kw
    j = k + 1
    if kw in ("var", "let"):
        while j < len(tokens) and tokens[j].text in ("(",):
            j += 1
    if j < len(tokens):
        if tokens[j].kind == "id":
            return tokens[j].text
        # An operator function: its punctuation up to the parameter list.
        op = ""
        while j < len(tokens) and tokens[j].kind == "punct" and tokens[j].text not in "(<":
            op += tokens[j].text
            j += 1
        return op or kw
    return kw


def starts_declaration(tokens, k):
    """Whether the `var`/`let` at k declares a property or constant (not a condition's binding)."""
    if k == 0:
        return True
    prev = tokens[k - 1]
    if prev.kind == "attr" or prev.text in MODIFIERS:
        return True
    if prev.kind == "punct" and prev.text == ")" and k >= 3 and tokens[k - 3].text in MODIFIERS:
        return True  # private(set) var
    if prev.text in ("{", "}", ";"):
        return True
    if prev.line < tokens[k].line and prev.text not in (",", "=", "&&", "||", "in"):
        return prev.text not in ("if", "guard", "while", "case", "for", "catch")
    return False


def marked(lexer, first_tokens, line):
    """The text after the marker in the comment block right above the declaration whose keyword is
    on line (attribute lines between them skipped), or None when there is no marker."""
    line -= 1
    while line > 0:
        if line in lexer.comments and line not in first_tokens:
            text = lexer.comments[line].lstrip("/ ")
            if text.startswith(MARKER):
                return text[len(MARKER):].strip()
        elif line not in first_tokens or first_tokens[line].kind != "attr":
            return None
        line -= 1
    return None


def measure(path, text):
    lexer = Lexer(text)
    tokens = lexer.run()
    match = matching_braces(tokens)
    scopes = type_scopes(tokens, match)
    first_tokens = {}
    for t in tokens:
        first_tokens.setdefault(t.line, t)
    found = []
    for k, t in enumerate(tokens):
        if t.kind != "id":
            continue
        if t.text in DECLARATION_KEYWORDS:
            if k > 0 and tokens[k - 1].text == ".":
                continue  # self.init(...), .init(...)
            body = body_of(tokens, k, match, same_line_only=False)
        elif t.text in ("var", "let") and starts_declaration(tokens, k):
            body = body_of(tokens, k, match, same_line_only=True)
        else:
            continue
        if body is None:
            continue
        lines = tokens[match[body]].line - t.line + 1
        name = declaration_name(tokens, k)
        if scopes[k]:
            name = scopes[k] + "." + name
        found.append(Measured(path, t.line, name, lines, marked(lexer, first_tokens, t.line)))
    return found


def main():
    args = sys.argv[1:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    root = os.path.normpath(root)

    violations = []
    long_functions = []
    for directory, subdirectories, files in os.walk(os.path.join(root, "Sources")):
        subdirectories.sort()
        relative_directory = os.path.relpath(directory, root)
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(relative_directory, file)
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
            file_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
            if file_lines > MAX_FILE_LINES:
                violations.append(f"{path}:1: file, {file_lines} lines (over {MAX_FILE_LINES})")
            for m in measure(path, text):
                if m.lines > MAX_FUNCTION_LINES:
                    violations.append(f"{path}:{m.line}: {m.name}, {m.lines} lines (over {MAX_FUNCTION_LINES})")
                elif m.lines > LONG_FUNCTION_LINES:
                    long_functions.append(m)
                    if m.marked is None:
                        violations.append(
                            f"{path}:{m.line}: {m.name}, {m.lines} lines (over {LONG_FUNCTION_LINES} "
                            f"without a `// {MARKER} <why>` comment)")
                    elif not m.marked:
                        violations.append(f"{path}:{m.line}: {m.name}, {m.lines} lines (its `{MARKER}` comment gives no reason)")
                elif m.marked is not None:
                    violations.append(
                        f"{path}:{m.line}: {m.name}, {m.lines} lines (marked `{MARKER}` but not over {LONG_FUNCTION_LINES})")
    if len(long_functions) > MAX_LONG_FUNCTIONS:
        names = ", ".join(f"{m.path}:{m.line} {m.name}" for m in long_functions)
        violations.append(
            f"{len(long_functions)} functions over {LONG_FUNCTION_LINES} lines, at most {MAX_LONG_FUNCTIONS} allowed: {names}")
    for v in violations:
        print(v)
    if violations:
        print(f"check-limits: {len(violations)} violation(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
