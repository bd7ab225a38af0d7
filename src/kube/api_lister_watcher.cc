// NewApiListerWatcher: an informer's source over ObjectClient and Watch().
#include <utility>

#include "dra/kube/informer.h"
#include "dra/kube/watch.h"

namespace dra::kube {
namespace {

class ApiListerWatcher : public ListerWatcher {
 public:
  ApiListerWatcher(ObjectClient objects, ResourceType type, std::string ns, std::string labels,
                   std::string fields)
      : objects_(std::move(objects)),
        type_(std::move(type)),
        ns_(std::move(ns)),
        labels_(std::move(labels)),
        fields_(std::move(fields)) {}

  ApiResult<ObjectList> List(const ListOptions& options) override {
    ListOptions lo = WithSelectors(options);
    ApiResult<ObjectList> list = options.limit > 0 ? objects_.List(type_, ns_, lo, options.limit)
                                                   : objects_.ListPage(type_, ns_, lo);
    if (!list.ok()) return list;
    // A list's items carry no kind (their list's type says it); watched
    // objects do. Informers see both alike.
    for (json::Value& item : list->items) {
      if (!item.is_object() || item.Find("kind") != nullptr) continue;
      item.members.insert(
          item.members.begin(),
          {json::Member{"apiVersion", json::Value::String(type_.GroupVersion()), {}},
           json::Member{"kind", json::Value::String(type_.kind), {}}});
    }
    return list;
  }

  bool SupportsWatchList() const override { return true; }

  ApiStatus Watch(const ListOptions& options, const std::function<bool(WatchEvent&&)>& on_event,
                  const std::atomic<bool>* cancel) override {
    return kube::Watch(objects_, type_, ns_, WithSelectors(options), on_event, cancel);
  }

 private:
  ListOptions WithSelectors(ListOptions o) const {
    if (o.label_selector.empty()) o.label_selector = labels_;
    if (o.field_selector.empty()) o.field_selector = fields_;
    return o;
  }
  ObjectClient objects_;
  ResourceType type_;
  std::string ns_, labels_, fields_;
};

}  // namespace

std::unique_ptr<ListerWatcher> NewApiListerWatcher(ObjectClient objects, ResourceType type,
                                                   std::string ns, std::string label_selector,
                                                   std::string field_selector) {
  return std::make_unique<ApiListerWatcher>(std::move(objects), std::move(type), std::move(ns),
                                            std::move(label_selector), std::move(field_selector));
}

}  // namespace dra::kube
