// Static types of the checker: CEL's type system restricted to what the DRA
// environment declares, printed the way cel-go prints types in messages.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  enum class Kind : std::uint8_t {
    kDyn,
    kError,  // a subexpression already failed to check; suppresses follow-on errors
    kNull,
    kBool,
    kInt,
    kUint,
    kDouble,
    kString,
    kBytes,
    kTimestamp,
    kDuration,
    kList,      // params[0]
    kMap,       // params[0], params[1]
    kOptional,  // params[0]
    kType,      // params[0]: the type the value denotes
    kOpaque,    // name: kubernetes.Quantity, kubernetes.Semver, kubernetes.DRADevice
    kParam,     // name: a type parameter of an overload (A, B, K, V)
  };
  Kind kind = Kind::kDyn;
  std::string name;
  std::vector<TypePtr> params;
};

TypePtr DynType();
// google.protobuf.Any as the older device declarations use it: matches
// overloads like dyn, but cannot be a comprehension range.
TypePtr AnyType();
bool IsAny(const Type& t);
TypePtr ErrorType();
TypePtr PrimitiveType(Type::Kind kind);
TypePtr ListType(TypePtr element);
TypePtr MapType(TypePtr key, TypePtr value);
TypePtr OptionalType(TypePtr value);
TypePtr TypeOfType(TypePtr denoted);
TypePtr OpaqueType(std::string name);

// Parses a signature type: "int", "list(A)", "map(string, map(string, dyn))",
// "optional_type(A)", "kubernetes.Quantity"; single upper-case letters are
// type parameters.
TypePtr ParseType(std::string_view text);

std::string TypeString(const Type& t);
bool SameType(const Type& a, const Type& b);

using TypeBindings = std::map<std::string, TypePtr>;
// Whether an argument of type `arg` can be passed where `param` is declared,
// binding type parameters. dyn (and error) match anything.
bool Assignable(const Type& param, const TypePtr& arg, TypeBindings* bindings);
// An unresolved type parameter (optional.none(), []): prints as dyn and is
// compatible with any type in aggregate literals.
TypePtr FreeType();
// Type equality for homogeneous literals, with FreeType() as a wildcard.
bool Compatible(const Type& a, const Type& b);
// `t` with bound parameters substituted; unbound ones become FreeType().
TypePtr Substitute(const TypePtr& t, const TypeBindings& bindings);

}  // namespace dra::cel
