#pragma once
/// @file Error types shared by every module: data errors at I/O edges, rejections in the core.

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace duels {

/// A problem found in a data file or a piece of notation: where it is and what was expected.
/// Rendered as `file:line: field: expected` so a player can go straight to the spot.
struct DataError {
  std::string file;      ///< file path, or "<input>" for command-line text
  int line = 0;          ///< 1-based line; 0 when unknown
  std::string field;     ///< dotted path of the field, e.g. `dials.head[3].value`
  std::string expected;  ///< what should have been there, in words

  [[nodiscard]] std::string message() const;
};

/// Thrown only at I/O edges (loaders, CLI parsing) and caught where the error is reported.
class DataException : public std::runtime_error {
 public:
  explicit DataException(DataError error)
      : std::runtime_error(error.message()), error_(std::move(error)) {}
  [[nodiscard]] const DataError& error() const { return error_; }

 private:
  DataError error_;
};

/// A value or an error, for pure code that must not throw. Minimal stand-in for C++23
/// `std::expected`.
template <class T, class E>
class Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT implicit
  Expected(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT implicit

  [[nodiscard]] bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  [[nodiscard]] const T& value() const& { return std::get<0>(v_); }
  [[nodiscard]] T& value() & { return std::get<0>(v_); }
  [[nodiscard]] T&& value() && { return std::get<0>(std::move(v_)); }
  [[nodiscard]] const E& error() const& { return std::get<1>(v_); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, E> v_;
};

}  // namespace duels
