// Internal: an allocation failure that says what was being done ("out of memory while importing
// 'x.bel.gz'"), still a std::bad_alloc to whoever catches one (the C API's GRAPPI_ENOMEM, the
// command line's one-line error).
#pragma once

#include <new>
#include <string>
#include <utility>

namespace grappi::detail {

class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string what) : what_(std::move(what)) {}
  const char *what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

/// f(), with a std::bad_alloc from it thrown again as OutOfMemory("out of memory while " +
/// doing) (one that already says what it was doing passes as it is). The memory the failed work
/// held is released by then: the message can be made.
template <class F>
decltype(auto) while_doing(const std::string &doing, F &&f) {
  try {
    return f();
  } catch (const OutOfMemory &) {
    throw;
  } catch (const std::bad_alloc &) {
    throw OutOfMemory("out of memory while " + doing);
  }
}

}  // namespace grappi::detail
