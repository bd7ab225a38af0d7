// Decoding of one kubeconfig document into the Kubeconfig model, with the
// leniency of client-go's decoder (clientcmd/api/v1 through apimachinery's
// JSON serializer): unknown keys ignored, null as absent, []byte fields as
// standard base64, duplicate names in a named list rejected.
#include <string>
#include <utility>
#include <vector>

#include "dra/kube/kubeconfig.h"
#include "kube/kubeconfig_internal.h"

namespace dra::kube {
namespace {

using json::Kind;
using json::Value;

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "value";
}

// Decoding context: the first error wins and names the field path.
class Decoder {
 public:
  bool failed() const { return !error_.empty(); }
  std::string error() const { return error_; }

  void Fail(const Value& v, const std::string& path, const std::string& what) {
    if (failed()) return;
    error_ = (v.pos.line > 0 ? "line " + std::to_string(v.pos.line) + ": " : std::string()) + path +
             ": " + what;
  }
  void WrongType(const Value& v, const std::string& path, const char* want) {
    Fail(v, path, std::string("cannot decode ") + KindName(v.kind) + " as " + want);
  }

  // Members of an object (nullptr for null). Fails on other kinds.
  const Value* Object(const Value& v, const std::string& path) {
    if (v.is_null()) return nullptr;
    if (!v.is_object()) {
      WrongType(v, path, "an object");
      return nullptr;
    }
    return &v;
  }
  void String(const Value& obj, std::string_view key, const std::string& path, std::string& out) {
    const Value* v = obj.Find(key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_string()) return WrongType(*v, Join(path, key), "a string");
    out = v->text;
  }
  void Bool(const Value& obj, std::string_view key, const std::string& path, bool& out) {
    const Value* v = obj.Find(key);
    if (v == nullptr || v->is_null()) return;
    if (v->kind != Kind::kBool) return WrongType(*v, Join(path, key), "a bool");
    out = v->boolean;
  }
  void Bytes(const Value& obj, std::string_view key, const std::string& path, std::string& out) {
    const Value* v = obj.Find(key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_string()) return WrongType(*v, Join(path, key), "a base64 string");
    Result<std::string> decoded = internal::DecodeBase64(v->text);
    if (!decoded.ok()) return Fail(*v, Join(path, key), decoded.error());
    out = std::move(decoded).value();
  }
  void StringList(const Value& obj, std::string_view key, const std::string& path,
                  std::vector<std::string>& out) {
    const Value* v = obj.Find(key);
    if (v == nullptr || v->is_null()) return;
    std::string p = Join(path, key);
    if (!v->is_array()) return WrongType(*v, p, "a list of strings");
    for (std::size_t i = 0; i < v->items.size(); ++i) {
      const Value& item = v->items[i];
      if (item.is_null()) {
        out.emplace_back();
      } else if (!item.is_string()) {
        return WrongType(item, p + "[" + std::to_string(i) + "]", "a string");
      } else {
        out.push_back(item.text);
      }
    }
  }

  static std::string Join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

 private:
  std::string error_;
};

void DecodeCluster(Decoder& d, const Value& v, const std::string& path, KubeconfigCluster& c);
void DecodeUser(Decoder& d, const Value& v, const std::string& path, KubeconfigUser& u);

// A named list ([{name: N, <field>: {...}}]) into a map; duplicates rejected
// with client-go's conversion message.
template <class T, class DecodeFn>
void DecodeNamedList(Decoder& d, const Value& root, std::string_view key, std::string_view field,
                     std::string_view go_names, std::map<std::string, T>& out, DecodeFn decode,
                     const std::string& base_path = "") {
  const Value* list = root.Find(key);
  if (list == nullptr || list->is_null()) return;
  std::string path = Decoder::Join(base_path, key);
  if (!list->is_array()) return d.WrongType(*list, path, "a list");
  for (std::size_t i = 0; i < list->items.size() && !d.failed(); ++i) {
    const Value& item = list->items[i];
    std::string item_path = path + "[" + std::to_string(i) + "]";
    const Value* obj = d.Object(item, item_path);
    if (obj == nullptr) continue;
    std::string name;
    d.String(*obj, "name", item_path, name);
    T entry{};
    if (const Value* body = obj->Find(field); body != nullptr) {
      std::string body_path = Decoder::Join(item_path, field);
      if (field == "extension") {
        decode(d, *body, body_path, entry);  // opaque: any JSON value
      } else if (const Value* o = d.Object(*body, body_path); o != nullptr) {
        decode(d, *o, body_path, entry);
      }
    }
    if (d.failed()) return;
    if (out.count(name) != 0) {
      return d.Fail(item, item_path,
                    "error converting " + std::string(go_names) + ": duplicate name \"" + name +
                        "\" in list");
    }
    out.emplace(std::move(name), std::move(entry));
  }
}

void DecodeCluster(Decoder& d, const Value& v, const std::string& path, KubeconfigCluster& c) {
  d.String(v, "server", path, c.server);
  d.String(v, "tls-server-name", path, c.tls_server_name);
  d.Bool(v, "insecure-skip-tls-verify", path, c.insecure_skip_tls_verify);
  d.String(v, "certificate-authority", path, c.certificate_authority);
  d.Bytes(v, "certificate-authority-data", path, c.certificate_authority_data);
  d.String(v, "proxy-url", path, c.proxy_url);
  d.Bool(v, "disable-compression", path, c.disable_compression);
  DecodeNamedList(
      d, v, "extensions", "extension", "*[]NamedExtension into *map[string]runtime.Object",
      c.extensions, [](Decoder&, const Value& e, const std::string&, Value& o) { o = e; }, path);
}

void DecodeExec(Decoder& d, const Value& v, const std::string& path, ExecConfig& e) {
  d.String(v, "command", path, e.command);
  d.StringList(v, "args", path, e.args);
  if (const Value* env = v.Find("env"); env != nullptr && !env->is_null()) {
    std::string env_path = Decoder::Join(path, "env");
    if (!env->is_array()) return d.WrongType(*env, env_path, "a list");
    for (std::size_t i = 0; i < env->items.size(); ++i) {
      std::string p = env_path + "[" + std::to_string(i) + "]";
      ExecEnvVar var;
      if (const Value* o = d.Object(env->items[i], p); o != nullptr) {
        d.String(*o, "name", p, var.name);
        d.String(*o, "value", p, var.value);
      }
      e.env.push_back(std::move(var));
    }
  }
  d.String(v, "apiVersion", path, e.api_version);
  d.String(v, "installHint", path, e.install_hint);
  d.Bool(v, "provideClusterInfo", path, e.provide_cluster_info);
  d.String(v, "interactiveMode", path, e.interactive_mode);
  if (e.interactive_mode.empty() && (e.api_version == "client.authentication.k8s.io/v1beta1" ||
                                     e.api_version == "client.authentication.k8s.io/v1alpha1")) {
    e.interactive_mode = "IfAvailable";
  }
}

void DecodeUser(Decoder& d, const Value& v, const std::string& path, KubeconfigUser& u) {
  d.String(v, "client-certificate", path, u.client_certificate);
  d.Bytes(v, "client-certificate-data", path, u.client_certificate_data);
  d.String(v, "client-key", path, u.client_key);
  d.Bytes(v, "client-key-data", path, u.client_key_data);
  d.String(v, "token", path, u.token);
  d.String(v, "tokenFile", path, u.token_file);
  d.String(v, "as", path, u.as);
  d.String(v, "as-uid", path, u.as_uid);
  d.StringList(v, "as-groups", path, u.as_groups);
  if (const Value* extra = v.Find("as-user-extra"); extra != nullptr && !extra->is_null()) {
    std::string p = Decoder::Join(path, "as-user-extra");
    if (!extra->is_object()) return d.WrongType(*extra, p, "a map of string lists");
    for (const json::Member& m : extra->members) {
      std::vector<std::string> values;
      Value holder = Value::Object();
      holder.members.push_back({m.key, m.value, {}});
      d.StringList(holder, m.key, p, values);
      u.as_user_extra[m.key] = std::move(values);
    }
  }
  d.String(v, "username", path, u.username);
  d.String(v, "password", path, u.password);
  if (const Value* ap = v.Find("auth-provider"); ap != nullptr && !ap->is_null()) {
    std::string p = Decoder::Join(path, "auth-provider");
    if (const Value* o = d.Object(*ap, p); o != nullptr) {
      AuthProviderConfig config;
      d.String(*o, "name", p, config.name);
      if (const Value* c = o->Find("config"); c != nullptr && !c->is_null()) {
        std::string cp = Decoder::Join(p, "config");
        if (!c->is_object()) return d.WrongType(*c, cp, "a map of strings");
        for (const json::Member& m : c->members) {
          d.String(*c, m.key, cp, config.config[m.key]);
        }
      }
      u.auth_provider = std::move(config);
    }
  }
  if (const Value* ex = v.Find("exec"); ex != nullptr && !ex->is_null()) {
    std::string p = Decoder::Join(path, "exec");
    if (const Value* o = d.Object(*ex, p); o != nullptr) {
      ExecConfig exec;
      DecodeExec(d, *o, p, exec);
      u.exec = std::move(exec);
    }
  }
}

void DecodeContext(Decoder& d, const Value& v, const std::string& path, KubeconfigContext& c) {
  d.String(v, "cluster", path, c.cluster);
  d.String(v, "user", path, c.user);
  d.String(v, "namespace", path, c.namespace_);
}

}  // namespace

Result<Kubeconfig> ParseKubeconfig(std::string_view text) {
  Kubeconfig config;
  if (text.empty()) return config;
  Value root;
  if (json::LooksLikeJson(text)) {
    Result<Value> parsed = json::ParseJson(text);
    if (!parsed.ok()) return parsed.failure();
    root = std::move(parsed).value();
  } else {
    Result<std::vector<json::YamlDocument>> docs = json::ParseYaml(text);
    if (!docs.ok()) return docs.failure();
    if (docs->empty()) return config;
    root = std::move((*docs)[0].root);
  }
  if (root.is_null()) return config;
  Decoder d;
  if (!root.is_object()) {
    d.WrongType(root, "(root)", "a Config object");
    return Error{d.error()};
  }
  // apiVersion/kind are optional; when present they must name a v1 Config.
  std::string api_version, kind;
  d.String(root, "apiVersion", "", api_version);
  d.String(root, "kind", "", kind);
  if (!d.failed() && !api_version.empty() && api_version != "v1") {
    return Error{"no kind \"" + (kind.empty() ? std::string("Config") : kind) +
                 "\" is registered for version \"" + api_version + "\""};
  }
  if (!d.failed() && !kind.empty() && kind != "Config") {
    return Error{"no kind \"" + kind + "\" is registered for version \"v1\""};
  }
  DecodeNamedList(d, root, "clusters", "cluster", "*[]NamedCluster into *map[string]*api.Cluster",
                  config.clusters, DecodeCluster);
  DecodeNamedList(d, root, "users", "user", "*[]NamedAuthInfo into *map[string]*api.AuthInfo",
                  config.users, DecodeUser);
  DecodeNamedList(d, root, "contexts", "context", "*[]NamedContext into *map[string]*api.Context",
                  config.contexts, DecodeContext);
  d.String(root, "current-context", "", config.current_context);
  if (const Value* prefs = root.Find("preferences"); prefs != nullptr) {
    (void)d.Object(*prefs, "preferences");
  }
  if (d.failed()) return Error{d.error()};
  return config;
}

}  // namespace dra::kube
