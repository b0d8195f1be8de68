// dsl/lexer.cpp — hand-written lexer for .ucut specs.
#include "dsl/lexer.h"

#include <fmt/format.h>

#include <cctype>

namespace ucut {

std::string_view tok_name(Tok t) {
  switch (t) {
    case Tok::ident: return "identifier";
    case Tok::integer: return "integer";
    case Tok::number: return "number";
    case Tok::colon: return "`:`";
    case Tok::comma: return "`,`";
    case Tok::dot: return "`.`";
    case Tok::lparen: return "`(`";
    case Tok::rparen: return "`)`";
    case Tok::lbracket: return "`[`";
    case Tok::rbracket: return "`]`";
    case Tok::shift: return "`>>`";
    case Tok::equals: return "`=`";
    case Tok::plus: return "`+`";
    case Tok::minus: return "`-`";
    case Tok::star: return "`*`";
    case Tok::slash: return "`/`";
    case Tok::eof: return "end of file";
    case Tok::error: return "invalid token";
    case Tok::stray: return "stray character";
  }
  return "token";
}

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  /// Lexes the bytes [range.begin, range.end) of `src`; spans stay offsets into the whole file.
  Lexer(const SourceFile& src, Span range, DiagEngine& diags)
      : text_(std::string_view(src.text()).substr(0, range.end)), diags_(diags), pos_(range.begin) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    if (text_.size() - pos_ > kMaxSpecBytes) {
      diags_.report(RuleId::P006, Span{0, 0},
                    fmt::format("the spec is {} bytes; the compiler reads at most {}", text_.size() - pos_,
                                kMaxSpecBytes),
                    "a kernel spec is 10-20 lines; split generated input or remove embedded data");
      out.push_back(Token{Tok::eof, Span{0, 0}, {}});
      return out;
    }
    while (true) {
      skip_trivia();
      if (pos_ >= text_.size()) break;
      out.push_back(next());  // past DiagEngine::kMaxErrors errors are counted, not kept
    }
    uint32_t end = static_cast<uint32_t>(text_.size());
    out.push_back(Token{Tok::eof, Span{end, end}, {}});
    return out;
  }

 private:
  void skip_trivia() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '#' || (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/')) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  Token make(Tok kind, size_t begin) {
    return Token{kind, Span{static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_)},
                 text_.substr(begin, pos_ - begin)};
  }

  Token number(size_t begin) {
    while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    bool is_float = false;
    if (pos_ < text_.size() && text_[pos_] == '.' && pos_ + 1 < text_.size() && digit(text_[pos_ + 1])) {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t save = pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ < text_.size() && digit(text_[pos_])) {
        is_float = true;
        while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
      } else {
        pos_ = save;  // no digits after `e`: back up; the check below then reports `2e` as one malformed number (P002)
      }
    }
    if (pos_ < text_.size() && ident_char(text_[pos_])) {
      while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
      Token t = make(Tok::error, begin);
      diags_.report(RuleId::P002, t.span, fmt::format("`{}` is not a number", t.text),
                    "separate the number from the name that follows it, or write a plain number such as `64`");
      return t;
    }
    return make(is_float ? Tok::number : Tok::integer, begin);
  }

  Token next() {
    size_t begin = pos_;
    char c = text_[pos_];
    if (ident_start(c)) {
      while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
      return make(Tok::ident, begin);
    }
    if (digit(c)) return number(begin);
    if (c == '.' && pos_ + 1 < text_.size() && digit(text_[pos_ + 1])) {
      ++pos_;
      Token t = number(pos_);
      if (t.kind == Tok::error) return t;
      return make(Tok::number, begin);
    }
    ++pos_;
    switch (c) {
      case ':': return make(Tok::colon, begin);
      case ',': return make(Tok::comma, begin);
      case '.': return make(Tok::dot, begin);
      case '(': return make(Tok::lparen, begin);
      case ')': return make(Tok::rparen, begin);
      case '[': return make(Tok::lbracket, begin);
      case ']': return make(Tok::rbracket, begin);
      case '=': return make(Tok::equals, begin);
      case '+': return make(Tok::plus, begin);
      case '-': return make(Tok::minus, begin);
      case '*': return make(Tok::star, begin);
      case '/': return make(Tok::slash, begin);
      case '>':
        if (pos_ < text_.size() && text_[pos_] == '>') {
          ++pos_;
          return make(Tok::shift, begin);
        }
        break;
      default: break;
    }
    // A valid UTF-8 character is one stray token, so the caret covers it; any other byte is one on its own.
    if (size_t n = utf8_char_length(text_, begin)) pos_ = begin + n;
    Token t = make(Tok::stray, begin);
    diags_.report(RuleId::P001, t.span, fmt::format("unexpected character {}", shown(t.text)),
                  c == '>' ? "epilogue stages are chained with `>>`"
                           : "specs use identifiers, numbers and `: , . ( ) [ ] >> = + - * /`; comments start with `#`");
    return t;
  }

  /// A stray character for a message: `@`, `×` (U+00D7), or a byte that prints as nothing, `byte 0x1b`.
  static std::string shown(std::string_view ch) {
    auto b = static_cast<unsigned char>(ch[0]);
    if (b >= 0x20 && b < 0x7f) return fmt::format("`{}`", ch);
    if (ch.size() == 1) return fmt::format("byte 0x{:02x}", b);
    uint32_t cp = b & (0x7F >> ch.size());  // the lead byte's payload bits
    for (size_t k = 1; k < ch.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(ch[k]) & 0x3F);
    return fmt::format("`{}` (U+{:04X})", ch, cp);
  }

  std::string_view text_;
  DiagEngine& diags_;
  size_t pos_;
};

}  // namespace

std::vector<Token> lex(const SourceFile& src, DiagEngine& diags) {
  return Lexer(src, Span{0, static_cast<uint32_t>(src.text().size())}, diags).run();
}

std::vector<Token> lex(const SourceFile& src, Span range, DiagEngine& diags) { return Lexer(src, range, diags).run(); }

}  // namespace ucut
