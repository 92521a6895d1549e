//===- JsonTest.cpp - Tests of the JSON value type ------------------------===//
//
// This file implements unit tests of tcgen::json: parsing, printing, round
// trips, and the line:column positions of parse errors.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Json.h"

#include <gtest/gtest.h>

using namespace tcgen::json;

namespace {

/// Parses `text`, expecting success.
Value parseOk(const std::string &text) {
  Value v;
  std::string error = parse(text, v);
  EXPECT_EQ(error, "") << "input: " << text;
  return v;
}

/// Parses `text`, expecting failure; returns the message.
std::string parseError(const std::string &text) {
  Value v;
  std::string error = parse(text, v);
  EXPECT_NE(error, "") << "input: " << text;
  return error;
}

TEST(JsonTest, ParsesScalars) {
  EXPECT_TRUE(parseOk("null").isNull());
  EXPECT_TRUE(parseOk("true").getBool());
  EXPECT_FALSE(parseOk("false").getBool());
  EXPECT_EQ(parseOk("42").getInt(), 42);
  EXPECT_EQ(parseOk("-7").getInt(), -7);
  EXPECT_DOUBLE_EQ(parseOk("1.5e3").getNumber(), 1500.0);
  EXPECT_DOUBLE_EQ(parseOk("-0.25").getNumber(), -0.25);
  EXPECT_EQ(parseOk("\"hi\"").getString(), "hi");
  EXPECT_EQ(parseOk("  \n 3 \t").getInt(), 3);
}

TEST(JsonTest, IntegersStayExact) {
  Value v = parseOk("9007199254740993"); // 2^53 + 1: not a double.
  EXPECT_TRUE(v.isInteger());
  EXPECT_EQ(v.getInt(), 9007199254740993LL);
  EXPECT_EQ(print(v, false), "9007199254740993");
  EXPECT_FALSE(parseOk("1.5").isInteger());
  EXPECT_TRUE(parseOk("2.0").isInteger());
}

TEST(JsonTest, ParsesEscapes) {
  EXPECT_EQ(parseOk(R"("a\"b\\c\/d\n\t")").getString(), "a\"b\\c/d\n\t");
  EXPECT_EQ(parseOk(R"("\u00e9")").getString(), "\xc3\xa9");
  EXPECT_EQ(parseOk(R"("\ud83d\ude00")").getString(), "\xf0\x9f\x98\x80");
}

TEST(JsonTest, ParsesContainersInOrder) {
  Value v = parseOk(R"({"b": [1, 2, {"c": null}], "a": {}})");
  ASSERT_TRUE(v.isObject());
  ASSERT_EQ(v.getMembers().size(), 2u);
  EXPECT_EQ(v.getMembers()[0].first, "b");
  EXPECT_EQ(v.getMembers()[1].first, "a");
  const Value *b = v.get("b");
  ASSERT_TRUE(b && b->isArray());
  EXPECT_EQ(b->getElements().size(), 3u);
  EXPECT_TRUE(b->getElements()[2].get("c")->isNull());
  EXPECT_EQ(v.get("missing"), nullptr);
}

TEST(JsonTest, CompactRoundTrip) {
  const char *text =
      R"({"s":"x\ny","n":-1.25,"i":7,"t":true,"z":null,"a":[[],{},[1,[2]]]})";
  Value v = parseOk(text);
  EXPECT_EQ(print(v, false), text);
}

TEST(JsonTest, PrettyRoundTrip) {
  Value v = parseOk(R"({"shape": [1024, 512], "ops": [{"kind": "ptr",
      "operand": "A"}], "nested": {"deep": {"x": 0.1}}, "empty": []})");
  std::string pretty = print(v);
  EXPECT_EQ(pretty, "{\n"
                    "  \"shape\": [1024, 512],\n"
                    "  \"ops\": [\n"
                    "    { \"kind\": \"ptr\", \"operand\": \"A\" }\n"
                    "  ],\n"
                    "  \"nested\": {\n"
                    "    \"deep\": {\n"
                    "      \"x\": 0.1\n"
                    "    }\n"
                    "  },\n"
                    "  \"empty\": []\n"
                    "}\n");
  EXPECT_EQ(parseOk(pretty), v);
}

TEST(JsonTest, DoublesRoundTrip) {
  for (double d : {0.1, 1.0 / 3.0, 1e300, -2.5e-308, 3.0e15}) {
    Value v(d);
    EXPECT_EQ(parseOk(print(v, false)).getNumber(), d) << print(v, false);
  }
  EXPECT_EQ(print(Value(0.5), false), "0.5");
}

TEST(JsonTest, EqualityIgnoresMemberOrder) {
  EXPECT_EQ(parseOk(R"({"a": 1, "b": 2})"), parseOk(R"({"b": 2, "a": 1.0})"));
  EXPECT_NE(parseOk(R"({"a": 1})"), parseOk(R"({"a": 2})"));
  EXPECT_NE(parseOk("[1, 2]"), parseOk("[2, 1]"));
}

TEST(JsonTest, BuildsValues) {
  Value o;
  o.set("k", Value::intArray({1, 2}));
  o.set("k", "replaced");
  o.set("b", false);
  EXPECT_EQ(print(o, false), R"({"k":"replaced","b":false})");
}

TEST(JsonTest, ErrorPositions) {
  EXPECT_EQ(parseError(""), "1:1: expected a JSON value, got end of input");
  EXPECT_EQ(parseError("{\"a\": 1,\n  \"b\" 2}"),
            "2:7: expected ':' after object key, got '2'");
  EXPECT_EQ(parseError("[1, 2\n,\n  3 x"),
            "3:5: expected ',' or ']' in array, got 'x'");
  EXPECT_EQ(parseError("{\"a\": tru}"),
            "1:7: invalid literal (expected 'true')");
  EXPECT_EQ(parseError("{1: 2}"),
            "1:2: expected a string key in object, got '1'");
  EXPECT_EQ(parseError("\n\n   \"abc"), "3:4: unterminated string");
  EXPECT_EQ(parseError("1 2"),
            "1:3: unexpected trailing characters after the JSON value");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"), "1:10: duplicate key \"a\"");
  EXPECT_EQ(parseError("-"), "1:2: invalid number: expected a digit");
  EXPECT_EQ(parseError("1."),
            "1:3: invalid number: expected a digit after '.'");
  EXPECT_EQ(parseError(R"("\q")"), "1:2: invalid escape sequence in string");
  EXPECT_EQ(parseError(R"("\ud800")"),
            "1:8: unpaired UTF-16 surrogate in \\u escape");
  EXPECT_EQ(parseError("\"a\nb\""),
            "1:3: control character in string (escape it)");
  EXPECT_EQ(parseError("1e999"), "1:1: number out of range");
}

TEST(JsonTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_NE(parseError(deep).find("nesting deeper than 256 levels"),
            std::string::npos);
}

} // namespace
