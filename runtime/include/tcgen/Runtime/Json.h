//===- Json.h - A small self-contained JSON value type ----------*- C++ -*-===//
//
// This file declares tcgen::json::Value, a JSON document tree with a parser
// and a printer. It has no dependencies beyond the C++17 standard library so
// that both the compiler (which writes manifests) and the runtime (which reads
// them) can use it. Objects keep their members in insertion order, so printing
// is stable. Errors are returned, never thrown.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RUNTIME_JSON_H
#define TCGEN_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcgen::json {

enum class Kind { Null, Bool, Number, String, Array, Object };

/// Returns the lowercase name of a kind ("null", "bool", "number", ...).
const char *kindName(Kind kind);

/// A JSON value. Numbers remember whether they were integers so that 64-bit
/// integers round-trip exactly.
class Value {
public:
  using Member = std::pair<std::string, Value>;

  /// Constructs null.
  Value() = default;
  Value(bool b) : kind(Kind::Bool), boolValue(b) {}
  Value(int v) : Value(static_cast<int64_t>(v)) {}
  Value(int64_t v)
      : kind(Kind::Number), isInt(true), intValue(v),
        numValue(static_cast<double>(v)) {}
  Value(double v) : kind(Kind::Number), numValue(v) {}
  Value(const char *s) : kind(Kind::String), strValue(s) {}
  Value(std::string s) : kind(Kind::String), strValue(std::move(s)) {}

  /// Returns an empty array / an empty object.
  static Value array();
  static Value object();
  /// Returns an array of integers.
  static Value intArray(const std::vector<int64_t> &values);

  Kind getKind() const { return kind; }
  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }
  /// True for a number with no fractional part that fits in int64_t.
  bool isInteger() const;

  /// Accessors; each requires the matching kind (returns a default otherwise).
  bool getBool() const { return kind == Kind::Bool && boolValue; }
  double getNumber() const { return kind == Kind::Number ? numValue : 0.0; }
  int64_t getInt() const;
  const std::string &getString() const { return strValue; }
  const std::vector<Value> &getElements() const { return elements; }
  const std::vector<Member> &getMembers() const { return members; }

  /// Appends to an array (a null value becomes an array first).
  void push(Value v);
  /// Sets an object member, replacing an existing one of the same name (a
  /// null value becomes an object first). Keeps insertion order.
  void set(std::string key, Value v);
  /// Returns the member named `key`, or nullptr if absent or not an object.
  const Value *get(std::string_view key) const;

  /// Deep equality; integers and doubles compare by numeric value, object
  /// members compare regardless of order.
  bool operator==(const Value &other) const;
  bool operator!=(const Value &other) const { return !(*this == other); }

private:
  Kind kind = Kind::Null;
  bool boolValue = false;
  bool isInt = false;
  int64_t intValue = 0;
  double numValue = 0.0;
  std::string strValue;
  std::vector<Value> elements;
  std::vector<Member> members;
};

/// Parses `text` as one JSON document. On success stores it in `out` and
/// returns an empty string; otherwise returns "LINE:COL: message" (1-based)
/// and leaves `out` unspecified. Nesting deeper than 256 levels is an error.
std::string parse(std::string_view text, Value &out);

/// Prints `value`. With `pretty`, objects are printed one member per line
/// indented by two spaces, arrays of scalars (and small objects of scalars
/// inside arrays) on one line; otherwise the output has no whitespace.
/// Non-finite numbers print as null.
std::string print(const Value &value, bool pretty = true);

} // namespace tcgen::json

#endif // TCGEN_RUNTIME_JSON_H
