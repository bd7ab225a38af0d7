// The parsed expression tree. Macros are kept as dedicated nodes rather than
// expanded into generic comprehensions: the checker, cost estimator and
// planner each know the handful of macro shapes, which keeps evaluation fast
// and error absorption exact.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dra::cel {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Constant {
  enum class Kind : std::uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kBytes };
  Kind kind = Kind::kNull;
  bool bool_value = false;
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  double double_value = 0;
  std::string string_value;  // kString (UTF-8) and kBytes (raw)
};

enum class ExprKind : std::uint8_t {
  kConstant,
  kIdent,   // name
  kSelect,  // operand.name; `test_only` for has(), `optional` for .?name
  kCall,    // name(args) or target.name(args); operators use cel-go's names (_+_, @in, ...)
  kList,    // [args...]; optional_elements marks [?x]
  kMap,     // {entries}
  kStruct,  // name{entries with field names}
  kMacro,   // comprehension macros and cel.bind
};

enum class Macro : std::uint8_t {
  kAll,                // range.all(var, args[0])
  kExists,             // range.exists(var, args[0])
  kExistsOne,          // range.exists_one(var, args[0])
  kMap,                // range.map(var, args[0]) / range.map(var, args[0]=filter, args[1])
  kFilter,             // range.filter(var, args[0])
  kAll2,               // range.all(var, var2, args[0])
  kExists2,            // range.exists(var, var2, args[0])
  kExistsOne2,         // range.existsOne(var, var2, args[0])
  kTransformList,      // range.transformList(var, var2, [filter,] transform)
  kTransformMap,       // range.transformMap(var, var2, [filter,] transform)
  kTransformMapEntry,  // range.transformMapEntry(var, var2, [filter,] transform)
  kBind,               // cel.bind(var, range=init, args[0]=body)
  kOptMap,             // range.optMap(var, args[0])
  kOptFlatMap,         // range.optFlatMap(var, args[0])
  kSortBy,             // range.sortBy(var, args[0]=key): lists ext v3
};

struct MapEntry {
  ExprPtr key;        // kMap
  std::string field;  // kStruct
  ExprPtr value;
  bool optional = false;  // {?key: value}
};

struct Expr {
  std::int64_t id = 0;
  std::int32_t offset = 0;  // byte offset of the token that identifies the node
  ExprKind kind = ExprKind::kConstant;
  Constant constant;
  std::string name;   // ident, selected field, function, struct type, macro variable
  std::string name2;  // second macro variable
  bool test_only = false;
  bool optional = false;
  Macro macro = Macro::kAll;
  ExprPtr target;  // select operand, receiver of a member call, macro range
  std::vector<ExprPtr> args;
  std::vector<bool> optional_elements;  // kList, parallel to args
  std::vector<MapEntry> entries;
  int height = 1;  // 1 + the tallest child; bounds recursion in later stages
};

}  // namespace dra::cel
