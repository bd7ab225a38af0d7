#include "cel/parser.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "cel/lexer.h"
#include "cel/utf8.h"

namespace dra::cel {
namespace {

// Words CEL reserves: not usable as identifiers, but allowed after a dot.
constexpr std::array<std::string_view, 16> kReservedIdentifiers = {
    "as",     "break", "const", "continue", "else",      "for",    "function", "if",
    "import", "let",   "loop",  "package",  "namespace", "return", "var",      "void"};

// ANTLR's expectation list where an expression was required.
constexpr std::string_view kExpectExpression =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
    "STRING, BYTES, IDENTIFIER}";

// Thrown to unwind the descent on the first syntax error and caught in
// Parse(); it never leaves this file.
struct Abort {};

class Parser {
 public:
  Parser(const Source& source, Issues* issues, const ParseOptions& options)
      : lexer_(source.text(), issues), issues_(issues), options_(options) {
    Advance();
  }

  ExprPtr ParseStart() {
    ExprPtr e = ParseExpr();
    if (tok_.kind != Tok::kEof) {
      Fail(tok_.offset, "extraneous input " + TokenDisplay(tok_) + " expecting <EOF>");
    }
    return e;
  }

 private:
  // --- plumbing -----------------------------------------------------------

  void Advance() {
    tok_ = lexer_.Next();
    while (tok_.kind == Tok::kError) tok_ = lexer_.Next();
  }

  [[noreturn]] void Fail(std::int32_t offset, const std::string& message) {
    issues_->Add(offset, "Syntax error: " + message);
    throw Abort{};
  }

  [[noreturn]] void FailPlain(std::int32_t offset, const std::string& message) {
    issues_->Add(offset, message);
    throw Abort{};
  }

  void Expect(Tok kind, std::string_view display) {
    if (tok_.kind != kind) {
      Fail(tok_.offset,
           "mismatched input " + TokenDisplay(tok_) + " expecting " + std::string(display));
    }
    Advance();
  }

  // Counts nesting of full expressions (parentheses, list elements, call
  // arguments, indexes); cel-go reports this at no location. Chains that do
  // not nest expressions (a.b.c, 1 + 2 + ...) are bounded by Seal instead.
  struct DepthGuard {
    Parser* p;
    explicit DepthGuard(Parser* parser) : p(parser) {
      if (++p->depth_ > p->options_.max_recursion_depth) {
        p->issues_->Add(kNoOffset, "expression recursion limit exceeded: " +
                                       std::to_string(p->options_.max_recursion_depth));
        throw Abort{};
      }
    }
    ~DepthGuard() { --p->depth_; }
  };

  ExprPtr New(ExprKind kind, std::int32_t offset) {
    auto e = std::make_unique<Expr>();
    e->id = ++next_id_;
    e->kind = kind;
    e->offset = offset;
    return e;
  }

  // Finalizes the height of a node from its children and enforces the bound
  // that protects the later (recursive) stages.
  ExprPtr Seal(ExprPtr e) {
    int h = 0;
    auto take = [&](const ExprPtr& c) {
      if (c) h = std::max(h, c->height);
    };
    take(e->target);
    for (const auto& a : e->args) take(a);
    for (const auto& m : e->entries) {
      take(m.key);
      take(m.value);
    }
    e->height = h + 1;
    if (e->height > options_.max_recursion_depth) {
      FailPlain(kNoOffset, "max recursion depth exceeded");
    }
    return e;
  }

  ExprPtr Call(std::string name, std::int32_t offset, std::vector<ExprPtr> args) {
    ExprPtr e = New(ExprKind::kCall, offset);
    e->name = std::move(name);
    e->args = std::move(args);
    return Seal(std::move(e));
  }

  ExprPtr Binary(std::string name, std::int32_t offset, ExprPtr l, ExprPtr r) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(l));
    args.push_back(std::move(r));
    return Call(std::move(name), offset, std::move(args));
  }

  // --- grammar ------------------------------------------------------------

  // expr: conditionalOr ('?' conditionalOr ':' expr)?
  ExprPtr ParseExpr() {
    DepthGuard guard(this);
    ExprPtr cond = ParseLogical(Tok::kOr);
    if (tok_.kind != Tok::kQuestion) return cond;
    std::int32_t offset = tok_.offset;
    Advance();
    ExprPtr then = ParseLogical(Tok::kOr);
    Expect(Tok::kColon, "':'");
    ExprPtr otherwise = ParseExpr();
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(then));
    args.push_back(std::move(otherwise));
    return Call("_?_:_", offset, std::move(args));
  }

  // conditionalOr / conditionalAnd. Chains are built as balanced trees (as
  // cel-go does), so long &&/|| chains stay shallow.
  ExprPtr ParseLogical(Tok op) {
    std::vector<ExprPtr> terms;
    std::vector<std::int32_t> offsets;
    terms.push_back(op == Tok::kOr ? ParseLogical(Tok::kAnd) : ParseRelation());
    while (tok_.kind == op) {
      offsets.push_back(tok_.offset);
      Advance();
      terms.push_back(op == Tok::kOr ? ParseLogical(Tok::kAnd) : ParseRelation());
    }
    if (terms.size() == 1) return std::move(terms[0]);
    return Balance(op == Tok::kOr ? "_||_" : "_&&_", terms, offsets, 0, terms.size() - 1);
  }

  ExprPtr Balance(const std::string& fn, std::vector<ExprPtr>& terms,
                  const std::vector<std::int32_t>& offsets, std::size_t lo, std::size_t hi) {
    if (lo == hi) return std::move(terms[lo]);
    std::size_t mid = (lo + hi + 1) / 2;
    ExprPtr l = Balance(fn, terms, offsets, lo, mid - 1);
    ExprPtr r = Balance(fn, terms, offsets, mid, hi);
    return Binary(fn, offsets[mid - 1], std::move(l), std::move(r));
  }

  static const char* RelationName(Tok t) {
    switch (t) {
      case Tok::kLt:
        return "_<_";
      case Tok::kLe:
        return "_<=_";
      case Tok::kGt:
        return "_>_";
      case Tok::kGe:
        return "_>=_";
      case Tok::kEq:
        return "_==_";
      case Tok::kNe:
        return "_!=_";
      case Tok::kIn:
        return "@in";
      default:
        return nullptr;
    }
  }

  // relation: calc (relop calc)*, all relations at one precedence, left-assoc.
  ExprPtr ParseRelation() {
    ExprPtr e = ParseAdditive();
    while (const char* name = RelationName(tok_.kind)) {
      std::int32_t offset = tok_.offset;
      Advance();
      e = Binary(name, offset, std::move(e), ParseAdditive());
    }
    return e;
  }

  ExprPtr ParseAdditive() {
    ExprPtr e = ParseMultiplicative();
    while (tok_.kind == Tok::kPlus || tok_.kind == Tok::kMinus) {
      const char* name = tok_.kind == Tok::kPlus ? "_+_" : "_-_";
      std::int32_t offset = tok_.offset;
      Advance();
      e = Binary(name, offset, std::move(e), ParseMultiplicative());
    }
    return e;
  }

  ExprPtr ParseMultiplicative() {
    ExprPtr e = ParseUnary();
    while (tok_.kind == Tok::kStar || tok_.kind == Tok::kSlash || tok_.kind == Tok::kPercent) {
      const char* name = tok_.kind == Tok::kStar ? "_*_" : tok_.kind == Tok::kSlash ? "_/_" : "_%_";
      std::int32_t offset = tok_.offset;
      Advance();
      e = Binary(name, offset, std::move(e), ParseUnary());
    }
    return e;
  }

  // unary: member | '!'+ member | '-'+ member. As in cel-go, an even run of
  // the same operator cancels out, and '-' directly before a number literal
  // makes a negative literal.
  ExprPtr ParseUnary() {
    if (tok_.kind == Tok::kNot || tok_.kind == Tok::kMinus) {
      Tok op = tok_.kind;
      std::int32_t offset = tok_.offset;
      int count = 0;
      while (tok_.kind == op) {
        ++count;
        Advance();
      }
      if (op == Tok::kMinus && count == 1 &&
          (tok_.kind == Tok::kInt || tok_.kind == Tok::kDouble)) {
        return ParseMember(ParseLiteral(true, offset));
      }
      ExprPtr operand = ParseMember(ParsePrimary());
      if (count % 2 == 0) return operand;
      std::vector<ExprPtr> args;
      args.push_back(std::move(operand));
      return Call(op == Tok::kNot ? "!_" : "-_", offset, std::move(args));
    }
    return ParseMember(ParsePrimary());
  }

  // Field names after a dot: identifiers, including reserved words.
  std::string ExpectFieldName() {
    if (tok_.kind != Tok::kIdent) {
      Fail(tok_.offset, "mismatched input " + TokenDisplay(tok_) + " expecting IDENTIFIER");
    }
    std::string name = tok_.value;
    Advance();
    return name;
  }

  // member: primary ('.' '?'? IDENT ('(' args ')')? | '[' '?'? expr ']')*
  ExprPtr ParseMember(ExprPtr e) {
    for (;;) {
      if (tok_.kind == Tok::kDot) {
        std::int32_t dot_offset = tok_.offset;
        Advance();
        bool optional = false;
        if (tok_.kind == Tok::kQuestion) {
          optional = true;
          Advance();
        }
        std::string name = ExpectFieldName();
        if (!optional && tok_.kind == Tok::kLParen) {
          std::int32_t call_offset = tok_.offset;
          Advance();
          std::vector<ExprPtr> args = ParseArgs(Tok::kRParen, "')'");
          e = MemberCall(std::move(e), std::move(name), call_offset, std::move(args));
          continue;
        }
        ExprPtr sel = New(ExprKind::kSelect, dot_offset);
        sel->target = std::move(e);
        sel->name = std::move(name);
        sel->optional = optional;
        e = Seal(std::move(sel));
      } else if (tok_.kind == Tok::kLBracket) {
        std::int32_t offset = tok_.offset;
        Advance();
        bool optional = false;
        if (tok_.kind == Tok::kQuestion) {
          optional = true;
          Advance();
        }
        ExprPtr index = ParseExpr();
        Expect(Tok::kRBracket, "']'");
        e = Binary(optional ? "_[?_]" : "_[_]", offset, std::move(e), std::move(index));
      } else {
        return e;
      }
    }
  }

  // Arguments up to and including `close`.
  std::vector<ExprPtr> ParseArgs(Tok close, std::string_view close_display) {
    std::vector<ExprPtr> args;
    if (tok_.kind == close) {
      Advance();
      return args;
    }
    for (;;) {
      args.push_back(ParseExpr());
      if (tok_.kind == Tok::kComma) {
        Advance();
        continue;
      }
      Expect(close, close_display);
      return args;
    }
  }

  ExprPtr ParsePrimary() {
    std::int32_t offset = tok_.offset;
    switch (tok_.kind) {
      case Tok::kDot:
      case Tok::kIdent:
        return ParseIdentOrCall();
      case Tok::kLParen: {
        Advance();
        ExprPtr e = ParseExpr();
        Expect(Tok::kRParen, "')'");
        return e;
      }
      case Tok::kLBracket: {
        Advance();
        ExprPtr list = New(ExprKind::kList, offset);
        while (tok_.kind != Tok::kRBracket) {
          bool optional = false;
          if (tok_.kind == Tok::kQuestion) {
            optional = true;
            Advance();
          }
          list->args.push_back(ParseExpr());
          list->optional_elements.push_back(optional);
          if (tok_.kind != Tok::kComma) break;
          Advance();
        }
        Expect(Tok::kRBracket, "']'");
        return Seal(std::move(list));
      }
      case Tok::kLBrace: {
        Advance();
        ExprPtr map = New(ExprKind::kMap, offset);
        while (tok_.kind != Tok::kRBrace) {
          MapEntry entry;
          if (tok_.kind == Tok::kQuestion) {
            entry.optional = true;
            Advance();
          }
          entry.key = ParseExpr();
          Expect(Tok::kColon, "':'");
          entry.value = ParseExpr();
          map->entries.push_back(std::move(entry));
          if (tok_.kind != Tok::kComma) break;
          Advance();
        }
        Expect(Tok::kRBrace, "'}'");
        return Seal(std::move(map));
      }
      case Tok::kInt:
      case Tok::kUint:
      case Tok::kDouble:
      case Tok::kString:
      case Tok::kBytes:
      case Tok::kTrue:
      case Tok::kFalse:
      case Tok::kNull:
        return ParseLiteral(false, offset);
      default:
        Fail(offset, "mismatched input " + TokenDisplay(tok_) + " expecting " +
                         std::string(kExpectExpression));
    }
  }

  ExprPtr ParseLiteral(bool negative, std::int32_t offset) {
    ExprPtr e = New(ExprKind::kConstant, offset);
    Constant& c = e->constant;
    switch (tok_.kind) {
      case Tok::kInt: {
        std::uint64_t limit = static_cast<std::uint64_t>(INT64_MAX) + (negative ? 1 : 0);
        if (tok_.out_of_range || tok_.uint_value > limit) {
          FailPlain(tok_.offset, "invalid int literal");
        }
        c.kind = Constant::Kind::kInt;
        c.int_value = negative ? static_cast<std::int64_t>(0 - tok_.uint_value)
                               : static_cast<std::int64_t>(tok_.uint_value);
        break;
      }
      case Tok::kUint:
        if (tok_.out_of_range) FailPlain(tok_.offset, "invalid uint literal");
        c.kind = Constant::Kind::kUint;
        c.uint_value = tok_.uint_value;
        break;
      case Tok::kDouble:
        c.kind = Constant::Kind::kDouble;
        c.double_value = negative ? -tok_.double_value : tok_.double_value;
        break;
      case Tok::kString:
        c.kind = Constant::Kind::kString;
        c.string_value = tok_.value;
        break;
      case Tok::kBytes:
        c.kind = Constant::Kind::kBytes;
        c.string_value = tok_.value;
        break;
      case Tok::kTrue:
      case Tok::kFalse:
        c.kind = Constant::Kind::kBool;
        c.bool_value = tok_.kind == Tok::kTrue;
        break;
      default:
        c.kind = Constant::Kind::kNull;
        break;
    }
    Advance();
    return e;
  }

  // IDENT, global call, or message construction `a.b.C{...}`.
  ExprPtr ParseIdentOrCall() {
    std::string name;
    if (tok_.kind == Tok::kDot) {
      name = ".";
      Advance();
    }
    std::int32_t ident_offset = tok_.offset;
    if (tok_.kind != Tok::kIdent) {
      Fail(tok_.offset, "mismatched input " + TokenDisplay(tok_) + " expecting IDENTIFIER");
    }
    name += tok_.value;
    Advance();
    if (tok_.kind == Tok::kLParen) {
      std::int32_t call_offset = tok_.offset;
      Advance();
      CheckReserved(name, ident_offset);
      std::vector<ExprPtr> args = ParseArgs(Tok::kRParen, "')'");
      return GlobalCall(std::move(name), call_offset, std::move(args));
    }
    // A qualified name followed by '{' is a message construction.
    if (tok_.kind == Tok::kLBrace || (tok_.kind == Tok::kDot && LooksLikeQualifiedStruct())) {
      return ParseStruct(std::move(name));
    }
    CheckReserved(name, ident_offset);
    ExprPtr e = New(ExprKind::kIdent, ident_offset);
    e->name = std::move(name);
    return e;
  }

  // With IDENT consumed and '.' pending: does IDENT ('.' IDENT)* '{' follow?
  // Looks ahead on a saved lexer state and restores it (and the issue list).
  bool LooksLikeQualifiedStruct() {
    Lexer saved_lexer = lexer_;
    Token saved_tok = tok_;
    std::size_t saved_issues = issues_->size();
    bool result = false;
    while (tok_.kind == Tok::kDot) {
      Advance();
      if (tok_.kind != Tok::kIdent) break;
      Advance();
      if (tok_.kind == Tok::kLBrace) {
        result = true;
        break;
      }
    }
    lexer_ = saved_lexer;
    tok_ = saved_tok;
    issues_->Truncate(saved_issues);
    return result;
  }

  ExprPtr ParseStruct(std::string name) {
    while (tok_.kind == Tok::kDot) {
      Advance();
      name += "." + ExpectFieldName();
    }
    std::int32_t brace = tok_.offset;
    Expect(Tok::kLBrace, "'{'");
    ExprPtr s = New(ExprKind::kStruct, brace);
    s->name = std::move(name);
    while (tok_.kind != Tok::kRBrace) {
      MapEntry entry;
      if (tok_.kind == Tok::kQuestion) {
        entry.optional = true;
        Advance();
      }
      entry.field = ExpectFieldName();
      Expect(Tok::kColon, "':'");
      entry.value = ParseExpr();
      s->entries.push_back(std::move(entry));
      if (tok_.kind != Tok::kComma) break;
      Advance();
    }
    Expect(Tok::kRBrace, "'}'");
    return Seal(std::move(s));
  }

  void CheckReserved(const std::string& name, std::int32_t offset) {
    if (std::find(kReservedIdentifiers.begin(), kReservedIdentifiers.end(), name) !=
        kReservedIdentifiers.end()) {
      FailPlain(offset, "reserved identifier: " + name);
    }
  }

  // --- macros -------------------------------------------------------------

  ExprPtr GlobalCall(std::string name, std::int32_t offset, std::vector<ExprPtr> args) {
    if (name == "has" && args.size() == 1) {
      ExprPtr& arg = args[0];
      if (arg->kind != ExprKind::kSelect || arg->optional) {
        FailPlain(arg->offset, "invalid argument to has() macro");
      }
      arg->test_only = true;
      return std::move(arg);
    }
    return Call(std::move(name), offset, std::move(args));
  }

  std::string MacroVariable(const ExprPtr& arg) {
    if (arg->kind != ExprKind::kIdent) FailPlain(arg->offset, "argument must be a simple name");
    return arg->name;
  }

  ExprPtr MakeMacro(Macro kind, std::int32_t offset, ExprPtr range, std::vector<ExprPtr>& args,
                    int variables) {
    ExprPtr m = New(ExprKind::kMacro, offset);
    m->macro = kind;
    m->target = std::move(range);
    m->name = MacroVariable(args[0]);
    if (variables == 2) m->name2 = MacroVariable(args[1]);
    for (std::size_t i = static_cast<std::size_t>(variables); i < args.size(); ++i) {
      m->args.push_back(std::move(args[i]));
    }
    return Seal(std::move(m));
  }

  ExprPtr MemberCall(ExprPtr target, std::string name, std::int32_t offset,
                     std::vector<ExprPtr> args) {
    std::size_t n = args.size();
    if (target->kind == ExprKind::kIdent && target->name == "cel" && name == "bind" && n == 3) {
      if (args[0]->kind != ExprKind::kIdent) {
        FailPlain(args[0]->offset, "cel.bind() variable names must be simple identifiers");
      }
      ExprPtr m = New(ExprKind::kMacro, offset);
      m->macro = Macro::kBind;
      m->name = args[0]->name;
      m->target = std::move(args[1]);
      m->args.push_back(std::move(args[2]));
      return Seal(std::move(m));
    }
    struct Spec {
      std::string_view name;
      std::size_t argc;
      Macro macro;
      int variables;
    };
    static constexpr Spec kSpecs[] = {
        {"all", 2, Macro::kAll, 1},
        {"exists", 2, Macro::kExists, 1},
        {"exists_one", 2, Macro::kExistsOne, 1},
        {"map", 2, Macro::kMap, 1},
        {"map", 3, Macro::kMap, 1},
        {"filter", 2, Macro::kFilter, 1},
        {"all", 3, Macro::kAll2, 2},
        {"exists", 3, Macro::kExists2, 2},
        {"existsOne", 3, Macro::kExistsOne2, 2},
        {"exists_one", 3, Macro::kExistsOne2, 2},
        {"transformList", 3, Macro::kTransformList, 2},
        {"transformList", 4, Macro::kTransformList, 2},
        {"transformMap", 3, Macro::kTransformMap, 2},
        {"transformMap", 4, Macro::kTransformMap, 2},
        {"transformMapEntry", 3, Macro::kTransformMapEntry, 2},
        {"transformMapEntry", 4, Macro::kTransformMapEntry, 2},
        {"optMap", 2, Macro::kOptMap, 1},
        {"optFlatMap", 2, Macro::kOptFlatMap, 1},
        {"sortBy", 2, Macro::kSortBy, 1},
    };
    for (const Spec& spec : kSpecs) {
      if (spec.name == name && spec.argc == n) {
        if (spec.macro == Macro::kSortBy && target->kind != ExprKind::kList &&
            target->kind != ExprKind::kSelect && target->kind != ExprKind::kIdent &&
            target->kind != ExprKind::kMacro && target->kind != ExprKind::kCall) {
          FailPlain(target->offset,
                    "sortBy can only be applied to a list, identifier, comprehension, call or "
                    "select expression");
        }
        return MakeMacro(spec.macro, offset, std::move(target), args, spec.variables);
      }
    }
    ExprPtr call = New(ExprKind::kCall, offset);
    call->name = std::move(name);
    call->target = std::move(target);
    call->args = std::move(args);
    return Seal(std::move(call));
  }

  Lexer lexer_;
  Issues* issues_;
  const ParseOptions& options_;
  Token tok_;
  int depth_ = 0;
  std::int64_t next_id_ = 0;
};

}  // namespace

ExprPtr Parse(const Source& source, Issues* issues, const ParseOptions& options) {
  std::size_t code_points = CountCodePoints(source.text());
  if (code_points > options.max_code_points) {
    issues->Add(kNoOffset,
                "expression code point size exceeds limit: size: " + std::to_string(code_points) +
                    ", limit " + std::to_string(options.max_code_points));
    return nullptr;
  }
  std::size_t before = issues->size();
  try {
    Parser parser(source, issues, options);
    ExprPtr e = parser.ParseStart();
    if (issues->size() != before) return nullptr;  // lexical errors
    return e;
  } catch (const Abort&) {
    return nullptr;
  }
}

}  // namespace dra::cel
