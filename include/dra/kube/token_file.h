// A bearer token read from a file that is rotated underneath us (projected
// service-account tokens, kubeconfig tokenFile), as client-go's
// transport/token_source.go caches it: the file is re-read when the cached
// token is older than ~50 s (a 60 s period less a 10 s leeway), its contents
// whitespace-trimmed; an unreadable or empty file keeps the last good token.
//
// Thread-safety: Get and Invalidate may be called from any thread at any time
// (one lock serialises them, file read included); path()'s reference lives as
// long as the provider.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "dra/kube/rest_config.h"
#include "dra/util/mutex.h"
#include "dra/util/result.h"

namespace dra::kube {

class TokenFileProvider : public CredentialProvider {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // `fallback_token`: used while the file has never been read successfully
  // (client-go: a kubeconfig `token` next to `tokenFile`, or --token). When
  // empty, the file is read at once and an unreadable or empty file is an
  // error ("failed to read token file \"<path>\": open <path>: ...",
  // "read empty token from file \"<path>\"").
  static Result<std::shared_ptr<TokenFileProvider>> Create(std::string path,
                                                           std::string fallback_token = "",
                                                           Clock clock = nullptr);

  // The cached token, re-reading the file when it is older than refresh_after().
  Result<Credentials> Get() override;
  // A 401 with `used`: when it is the cached token, the next Get() re-reads the
  // file (the last good token still serves if that read fails).
  void Invalidate(const Credentials& used) override;

  const std::string& path() const { return path_; }
  static constexpr std::chrono::seconds refresh_after() { return std::chrono::seconds(50); }

  TokenFileProvider(std::string path, std::string fallback, Clock clock);

 private:
  Result<std::string> ReadToken() const;

  const std::string path_;
  const std::string fallback_;
  const Clock clock_;
  Mutex mu_;
  std::string token_ DRA_GUARDED_BY(mu_);  // last good token from the file
  // token_ read at read_at_ and not invalidated
  bool fresh_ DRA_GUARDED_BY(mu_) = false;
  std::chrono::steady_clock::time_point read_at_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::kube
