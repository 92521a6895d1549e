//===- Json.cpp - A small self-contained JSON value type ------------------===//
//
// This file implements tcgen::json::Value, its recursive-descent parser (with
// line:column error positions) and its printer.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Json.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tcgen::json;

const char *tcgen::json::kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "bool";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

Value Value::array() {
  Value v;
  v.kind = Kind::Array;
  return v;
}

Value Value::object() {
  Value v;
  v.kind = Kind::Object;
  return v;
}

Value Value::intArray(const std::vector<int64_t> &values) {
  Value v = array();
  for (int64_t x : values)
    v.push(Value(x));
  return v;
}

bool Value::isInteger() const {
  if (kind != Kind::Number)
    return false;
  if (isInt)
    return true;
  // 2^63 is exactly representable; anything >= it does not fit in int64_t.
  return std::isfinite(numValue) && std::trunc(numValue) == numValue &&
         numValue >= -9223372036854775808.0 && numValue < 9223372036854775808.0;
}

int64_t Value::getInt() const {
  if (kind != Kind::Number)
    return 0;
  if (isInt)
    return intValue;
  return isInteger() ? static_cast<int64_t>(numValue) : 0;
}

void Value::push(Value v) {
  if (kind == Kind::Null)
    kind = Kind::Array;
  if (kind == Kind::Array)
    elements.push_back(std::move(v));
}

void Value::set(std::string key, Value v) {
  if (kind == Kind::Null)
    kind = Kind::Object;
  if (kind != Kind::Object)
    return;
  for (Member &m : members) {
    if (m.first == key) {
      m.second = std::move(v);
      return;
    }
  }
  members.emplace_back(std::move(key), std::move(v));
}

const Value *Value::get(std::string_view key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (const Member &m : members)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

bool Value::operator==(const Value &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Null:
    return true;
  case Kind::Bool:
    return boolValue == other.boolValue;
  case Kind::Number:
    if (isInt && other.isInt)
      return intValue == other.intValue;
    return numValue == other.numValue;
  case Kind::String:
    return strValue == other.strValue;
  case Kind::Array:
    return elements == other.elements;
  case Kind::Object:
    if (members.size() != other.members.size())
      return false;
    for (const Member &m : members) {
      const Value *o = other.get(m.first);
      if (!o || *o != m.second)
        return false;
    }
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {
constexpr int kMaxDepth = 256; // Bounds recursion on hostile input.

class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  std::string run(Value &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return error;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected trailing characters after the JSON value"), error;
    return "";
  }

private:
  std::string_view text;
  size_t pos = 0;
  std::string error;

  /// Records an error at the current position; always returns false.
  bool fail(const std::string &message) { return failAt(pos, message); }

  bool failAt(size_t at, const std::string &message) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error = std::to_string(line) + ":" + std::to_string(col) + ": " + message;
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  static std::string describe(char c) {
    if (c == '\0')
      return "end of input";
    if (static_cast<unsigned char>(c) < 0x20)
      return "control character";
    return std::string("'") + c + "'";
  }

  bool parseValue(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    char c = peek();
    switch (c) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"': {
      std::string s;
      if (!parseString(s))
        return false;
      out = Value(std::move(s));
      return true;
    }
    case 't':
      return parseLiteral("true", Value(true), out);
    case 'f':
      return parseLiteral("false", Value(false), out);
    case 'n':
      return parseLiteral("null", Value(), out);
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber(out);
      return fail("expected a JSON value, got " + describe(c));
    }
  }

  bool parseLiteral(std::string_view word, Value v, Value &out) {
    if (text.substr(pos, word.size()) != word)
      return fail("invalid literal (expected '" + std::string(word) + "')");
    pos += word.size();
    out = std::move(v);
    return true;
  }

  bool parseNumber(Value &out) {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    } else {
      return fail("invalid number: expected a digit");
    }
    if (peek() == '.') {
      integral = false;
      ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("invalid number: expected a digit after '.'");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("invalid number: expected a digit in the exponent");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    std::string token(text.substr(start, pos - start));
    if (integral) {
      errno = 0;
      char *end = nullptr;
      long long v = std::strtoll(token.c_str(), &end, 10);
      if (errno == 0) {
        out = Value(static_cast<int64_t>(v));
        return true;
      }
      // Out of int64_t range: keep it as a double.
    }
    double d = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(d))
      return failAt(start, "number out of range");
    out = Value(d);
    return true;
  }

  static void appendUtf8(std::string &s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(uint32_t &cp) {
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      uint32_t d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        return fail("invalid \\u escape: expected 4 hex digits");
      cp = cp * 16 + d;
      ++pos;
    }
    return true;
  }

  bool parseString(std::string &out) {
    size_t start = pos;
    ++pos; // opening quote
    while (true) {
      if (atEnd())
        return failAt(start, "unterminated string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string (escape it)");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      char e = peek();
      ++pos;
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t low;
          if (text.substr(pos, 2) != "\\u")
            return fail("unpaired UTF-16 surrogate in \\u escape");
          pos += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("invalid UTF-16 low surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        pos -= 2; // Point at the backslash.
        return fail("invalid escape sequence in string");
      }
    }
  }

  bool parseArray(Value &out, int depth) {
    ++pos; // '['
    out = Value::array();
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      Value element;
      if (!parseValue(element, depth + 1))
        return false;
      out.push(std::move(element));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array, got " + describe(peek()));
    }
  }

  bool parseObject(Value &out, int depth) {
    ++pos; // '{'
    out = Value::object();
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return fail("expected a string key in object, got " + describe(peek()));
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      if (out.get(key))
        return failAt(keyPos, "duplicate key \"" + key + "\"");
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after object key, got " + describe(peek()));
      ++pos;
      skipSpace();
      Value member;
      if (!parseValue(member, depth + 1))
        return false;
      out.set(std::move(key), std::move(member));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object, got " + describe(peek()));
    }
  }
};
} // namespace

std::string tcgen::json::parse(std::string_view text, Value &out) {
  return Parser(text).run(out);
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

namespace {
constexpr size_t kInlineObjectWidth = 100; // Longer objects go multi-line.

void printString(const std::string &s, std::string &os) {
  os += '"';
  for (char c : s) {
    switch (c) {
    case '"':
      os += "\\\"";
      break;
    case '\\':
      os += "\\\\";
      break;
    case '\n':
      os += "\\n";
      break;
    case '\r':
      os += "\\r";
      break;
    case '\t':
      os += "\\t";
      break;
    case '\b':
      os += "\\b";
      break;
    case '\f':
      os += "\\f";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        os += buf;
      } else {
        os += c;
      }
    }
  }
  os += '"';
}

void printNumber(const Value &v, std::string &os) {
  if (v.isInteger() && std::fabs(v.getNumber()) < 9.0e15) {
    os += std::to_string(v.getInt());
    return;
  }
  double d = v.getNumber();
  if (!std::isfinite(d)) {
    os += "null";
    return;
  }
  if (v.isInteger()) { // Large exact integers.
    os += std::to_string(v.getInt());
    return;
  }
  // Shortest representation that round-trips.
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d)
      break;
  }
  os += buf;
  // Keep it recognizably a non-integer number.
  if (!std::strpbrk(buf, ".eEn"))
    os += ".0";
}

bool isScalar(const Value &v) { return !v.isArray() && !v.isObject(); }

bool isFlatArray(const Value &v) {
  if (!v.isArray())
    return false;
  return std::all_of(v.getElements().begin(), v.getElements().end(), isScalar);
}

void printCompact(const Value &v, std::string &os, bool spaced);

void printCompactContainer(const Value &v, std::string &os, bool spaced) {
  const char *sep = spaced ? ", " : ",";
  if (v.isArray()) {
    os += '[';
    bool first = true;
    for (const Value &e : v.getElements()) {
      if (!first)
        os += sep;
      first = false;
      printCompact(e, os, spaced);
    }
    os += ']';
    return;
  }
  os += spaced && !v.getMembers().empty() ? "{ " : "{";
  bool first = true;
  for (const Value::Member &m : v.getMembers()) {
    if (!first)
      os += sep;
    first = false;
    printString(m.first, os);
    os += spaced ? ": " : ":";
    printCompact(m.second, os, spaced);
  }
  os += spaced && !v.getMembers().empty() ? " }" : "}";
}

void printCompact(const Value &v, std::string &os, bool spaced) {
  switch (v.getKind()) {
  case Kind::Null:
    os += "null";
    return;
  case Kind::Bool:
    os += v.getBool() ? "true" : "false";
    return;
  case Kind::Number:
    printNumber(v, os);
    return;
  case Kind::String:
    printString(v.getString(), os);
    return;
  case Kind::Array:
  case Kind::Object:
    printCompactContainer(v, os, spaced);
    return;
  }
}

/// True if `v`, an element of an array, prints on one line: an object whose
/// members are scalars or flat arrays and whose one-line form is short.
bool isInlineObject(const Value &v) {
  if (!v.isObject())
    return false;
  for (const Value::Member &m : v.getMembers())
    if (!isScalar(m.second) && !isFlatArray(m.second))
      return false;
  std::string s;
  printCompact(v, s, true);
  return s.size() <= kInlineObjectWidth;
}

void printPretty(const Value &v, std::string &os, int indent) {
  std::string pad(indent + 2, ' ');
  bool empty = v.getElements().empty() && v.getMembers().empty();
  if (isScalar(v) || isFlatArray(v) || empty) {
    printCompact(v, os, true);
    return;
  }
  if (v.isArray()) {
    os += "[\n";
    bool first = true;
    for (const Value &e : v.getElements()) {
      if (!first)
        os += ",\n";
      first = false;
      os += pad;
      if (isInlineObject(e))
        printCompact(e, os, true);
      else
        printPretty(e, os, indent + 2);
    }
    os += "\n" + std::string(indent, ' ') + "]";
    return;
  }
  os += "{\n";
  bool first = true;
  for (const Value::Member &m : v.getMembers()) {
    if (!first)
      os += ",\n";
    first = false;
    os += pad;
    printString(m.first, os);
    os += ": ";
    printPretty(m.second, os, indent + 2);
  }
  os += "\n" + std::string(indent, ' ') + "}";
}
} // namespace

std::string tcgen::json::print(const Value &value, bool pretty) {
  std::string os;
  if (pretty) {
    printPretty(value, os, 0);
    os += '\n';
  } else {
    printCompact(value, os, false);
  }
  return os;
}
