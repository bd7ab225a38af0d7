#include "dra/kube/compressed_text.h"

#include <sys/mman.h>
// For ZDICT_optimizeTrainFromBuffer_fastCover and its parameters, which
// libzstd's shared library exports but zdict.h declares only on request.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <limits>
#include <new>
#include <utility>

namespace dra::kube {
namespace internal {

// Blocks of up to 1 KiB in 16-byte size classes, cut from 256 KiB slabs
// mapped apart from the heap; a freed block is reused for the next of its
// class. Slabs are unmapped when the last text (and the compressor) is gone.
// Larger blocks come from the heap. Thread-safety: any thread.
class SlabPool {
 public:
  SlabPool() = default;
  ~SlabPool() {
    for (void* s : slabs_) munmap(s, kSlabBytes);
  }
  SlabPool(const SlabPool&) = delete;
  SlabPool& operator=(const SlabPool&) = delete;

  void* Allocate(std::size_t n) {
    if (n > kLargest) return ::operator new(n);
    const std::size_t c = ClassOf(n);
    MutexLock lock(mu_);
    if (FreeBlock* b = free_[c]; b != nullptr) {
      free_[c] = b->next;
      return b;
    }
    const std::size_t bytes = (c + 1) * kGrain;
    if (static_cast<std::size_t>(end_ - next_) < bytes) {
      void* slab =
          mmap(nullptr, kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (slab == MAP_FAILED) throw std::bad_alloc();
      slabs_.push_back(slab);
      next_ = static_cast<char*>(slab);
      end_ = next_ + kSlabBytes;
    }
    void* out = next_;
    next_ += bytes;
    return out;
  }

  void Free(void* p, std::size_t n) {
    if (p == nullptr) return;
    if (n > kLargest) {
      ::operator delete(p);
      return;
    }
    const std::size_t c = ClassOf(n);
    MutexLock lock(mu_);
    auto* b = static_cast<FreeBlock*>(p);
    b->next = free_[c];
    free_[c] = b;
  }

  std::size_t bytes() const {
    MutexLock lock(mu_);
    return slabs_.size() * kSlabBytes;
  }

 private:
  static constexpr std::size_t kGrain = 16;  // also the blocks' alignment
  static constexpr std::size_t kLargest = 1024;
  static constexpr std::size_t kSlabBytes = 256 * 1024;
  static std::size_t ClassOf(std::size_t n) { return n == 0 ? 0 : (n - 1) / kGrain; }
  struct FreeBlock {
    FreeBlock* next;
  };

  mutable Mutex mu_;
  std::vector<void*> slabs_ DRA_GUARDED_BY(mu_);
  char* next_ DRA_GUARDED_BY(mu_) = nullptr;
  char* end_ DRA_GUARDED_BY(mu_) = nullptr;
  std::array<FreeBlock*, kLargest / kGrain> free_ DRA_GUARDED_BY(mu_){};
};

// What the texts of one compressor share. The dictionary is set once, before
// the first text that uses it exists, and never changed.
struct CompressorShared {
  SlabPool pool;
  std::atomic<ZSTD_DDict*> dictionary{nullptr};
  ~CompressorShared() { ZSTD_freeDDict(dictionary.load()); }
};

// std::allocate_shared's allocator: the control block and the text in a slab.
template <class T>
struct SlabAllocator {
  using value_type = T;
  std::shared_ptr<CompressorShared> shared;
  explicit SlabAllocator(std::shared_ptr<CompressorShared> s) : shared(std::move(s)) {}
  template <class U>
  SlabAllocator(const SlabAllocator<U>& other)  // NOLINT(google-explicit-constructor)
      : shared(other.shared) {}
  T* allocate(std::size_t n) { return static_cast<T*>(shared->pool.Allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { shared->pool.Free(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const SlabAllocator<U>& other) const {
    return shared == other.shared;
  }
};

}  // namespace internal

namespace {

// One decompression context per thread that reads texts, made on first use:
// creating one per text would cost more than the decompression.
ZSTD_DCtx* ThreadDecompressor() {
  struct Owner {
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    ~Owner() { ZSTD_freeDCtx(ctx); }
  };
  thread_local Owner owner;
  return owner.ctx;
}

}  // namespace

CompressedText::CompressedText(Token, internal::CompressorShared* shared, char* block,
                               std::uint32_t label_size, std::uint32_t size,
                               std::uint32_t original_size, bool with_dictionary)
    : shared_(shared),
      block_(block),
      label_size_(label_size),
      size_(size),
      original_size_(original_size),
      with_dictionary_(with_dictionary) {}

CompressedText::~CompressedText() { shared_->pool.Free(block_, label_size_ + size_); }

Result<std::string> CompressedText::Decompress() const {
  std::string out(original_size_, '\0');
  ZSTD_DCtx* ctx = ThreadDecompressor();
  if (ctx == nullptr) return Error{"zstd: out of memory", ErrorCode::kInternal};
  const char* data = block_ + label_size_;
  const std::size_t n = with_dictionary_
                            ? ZSTD_decompress_usingDDict(ctx, out.data(), out.size(), data, size_,
                                                         shared_->dictionary.load())
                            : ZSTD_decompressDCtx(ctx, out.data(), out.size(), data, size_);
  if (ZSTD_isError(n) != 0) {
    return Error{std::string("zstd: ") + ZSTD_getErrorName(n), ErrorCode::kInternal};
  }
  if (n != out.size()) return Error{"zstd: a compressed text is short", ErrorCode::kInternal};
  return out;
}

struct TextCompressor::Context {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CDict* cdict = nullptr;
  std::string scratch;
  ~Context() {
    ZSTD_freeCDict(cdict);
    ZSTD_freeCCtx(cctx);
  }
};

TextCompressor::TextCompressor(TextCompressorOptions options)
    : options_(options),
      shared_(std::make_shared<internal::CompressorShared>()),
      context_(std::make_unique<Context>()) {}

TextCompressor::~TextCompressor() = default;

bool TextCompressor::trained() const {
  MutexLock lock(mu_);
  return trained_;
}

std::size_t TextCompressor::slab_bytes() const { return shared_->pool.bytes(); }

void TextCompressor::Train() {
  trained_ = true;
  std::string dictionary(options_.dictionary_bytes, '\0');
  // ZDICT_trainFromBuffer's search (fastCover, d=8, 4 steps of k) with a
  // frequency table of 2^16 entries instead of 2^20: the table is most of
  // what training takes, 11 MiB at once for a megabyte of samples with the
  // default, while several informers may train at the same moment of a
  // first sync. The dictionary's tables are also made for the level the
  // texts are compressed at (ZDICT_trainFromBuffer assumes zstd's default,
  // 3). On dra serve's objects the dictionaries compress as well.
  ZDICT_fastCover_params_t params{};
  params.d = 8;
  params.f = 16;
  params.steps = 4;
  params.accel = 1;
  params.zParams.compressionLevel = options_.level;
  const std::size_t n = ZDICT_optimizeTrainFromBuffer_fastCover(
      dictionary.data(), dictionary.size(), samples_.data(), sample_sizes_.data(),
      static_cast<unsigned>(sample_sizes_.size()), &params);
  samples_ = {};
  sample_sizes_ = {};
  // Too few or too alike texts to learn from: they stay compressed alone.
  if (ZDICT_isError(n) != 0) return;
  ZSTD_CDict* cdict = ZSTD_createCDict(dictionary.data(), n, options_.level);
  ZSTD_DDict* ddict = ZSTD_createDDict(dictionary.data(), n);
  if (cdict == nullptr || ddict == nullptr) {
    ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
    return;
  }
  context_->cdict = cdict;
  shared_->dictionary.store(ddict);
}

Result<std::shared_ptr<const CompressedText>> TextCompressor::Compress(std::string_view text,
                                                                       std::string_view label) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max() / 2) {
    return Error{"a text to compress is over 2 GiB"};
  }
  if (label.size() > 65536) return Error{"a label of a compressed text is over 64 KiB"};
  MutexLock lock(mu_);
  if (context_->cctx == nullptr) return Error{"zstd: out of memory", ErrorCode::kInternal};
  if (!trained_) {
    samples_.append(text);
    sample_sizes_.push_back(text.size());
    if (samples_.size() >= options_.train_after_bytes ||
        sample_sizes_.size() >= options_.train_after_texts) {
      Train();
    }
  }
  std::string& out = context_->scratch;
  out.resize(ZSTD_compressBound(text.size()));
  const bool with_dictionary = context_->cdict != nullptr;
  const std::size_t n = with_dictionary
                            ? ZSTD_compress_usingCDict(context_->cctx, out.data(), out.size(),
                                                       text.data(), text.size(), context_->cdict)
                            : ZSTD_compressCCtx(context_->cctx, out.data(), out.size(), text.data(),
                                                text.size(), options_.level);
  if (ZSTD_isError(n) != 0) {
    return Error{std::string("zstd: ") + ZSTD_getErrorName(n), ErrorCode::kInternal};
  }
  auto* block = static_cast<char*>(shared_->pool.Allocate(label.size() + n));
  std::copy(label.begin(), label.end(), block);
  std::copy_n(out.data(), n, block + label.size());
  std::shared_ptr<const CompressedText> made = std::allocate_shared<CompressedText>(
      internal::SlabAllocator<CompressedText>(shared_), CompressedText::Token{}, shared_.get(),
      block, static_cast<std::uint32_t>(label.size()), static_cast<std::uint32_t>(n),
      static_cast<std::uint32_t>(text.size()), with_dictionary);
  return made;
}

}  // namespace dra::kube
