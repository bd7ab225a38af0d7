// List<T>: a std::vector that remembers whether it was nil, because Go's JSON
// encoding and Kubernetes validation tell a nil slice (absent, or JSON null)
// from an empty one (`[]`).
#pragma once

#include <vector>

namespace dra::api {

template <class T>
class List : public std::vector<T> {
 public:
  using std::vector<T>::vector;

  // A list is nil until it is given an element or explicitly marked present.
  bool nil() const { return nil_ && this->empty(); }
  void set_present() { nil_ = false; }
  void set_nil() {
    this->clear();
    nil_ = true;
  }

 private:
  bool nil_ = true;
};

}  // namespace dra::api
