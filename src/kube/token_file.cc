#include "dra/kube/token_file.h"

#include <utility>

#include "dra/kube/kubeconfig.h"
#include "dra/util/mutex.h"
#include "kube/kubeconfig_internal.h"

namespace dra::kube {

TokenFileProvider::TokenFileProvider(std::string path, std::string fallback, Clock clock)
    : path_(std::move(path)), fallback_(std::move(fallback)), clock_(std::move(clock)) {}

Result<std::shared_ptr<TokenFileProvider>> TokenFileProvider::Create(std::string path,
                                                                     std::string fallback_token,
                                                                     Clock clock) {
  if (!clock) clock = [] { return std::chrono::steady_clock::now(); };
  auto provider =
      std::make_shared<TokenFileProvider>(std::move(path), std::move(fallback_token), clock);
  if (provider->fallback_.empty()) {
    Result<Credentials> first = provider->Get();
    if (!first.ok()) return first.failure();
  }
  return provider;
}

Result<std::string> TokenFileProvider::ReadToken() const {
  Result<std::string> text = internal::ReadFileBounded(path_, kMaxConfigFileBytes);
  if (!text.ok()) return text.failure().WithPrefix("failed to read token file \"" + path_ + "\": ");
  std::string token(internal::TrimSpace(*text));
  if (token.empty()) return Error{"read empty token from file \"" + path_ + "\""};
  return token;
}

Result<Credentials> TokenFileProvider::Get() {
  MutexLock lock(mu_);
  const auto now = clock_();
  if (fresh_ && now - read_at_ < refresh_after()) return Credentials{token_, "", ""};
  Result<std::string> token = ReadToken();
  if (token.ok()) {
    token_ = std::move(token).value();
    fresh_ = true;
    read_at_ = now;
    return Credentials{token_, "", ""};
  }
  // Keep serving what we had: the last good token, else the static one.
  if (!token_.empty()) return Credentials{token_, "", ""};
  if (!fallback_.empty()) return Credentials{fallback_, "", ""};
  return token.failure();
}

void TokenFileProvider::Invalidate(const Credentials& used) {
  MutexLock lock(mu_);
  if (used.bearer_token == token_ || token_.empty()) fresh_ = false;
}

}  // namespace dra::kube
