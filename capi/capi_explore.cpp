// The C API (grappi.h): explore.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- explore --------------------------------------------------------------------------------------

grappi_status grappi_chat_reply_set(grappi_chat_reply *reply, const char *content, int64_t prompt_tokens,
                                    int64_t completion_tokens) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_chat_reply_set";
    require(reply != nullptr, fn, "reply is NULL");
    std::string c = text(content, fn, "content");
    require(prompt_tokens >= 0 && completion_tokens >= 0, fn, "negative token count");
    reply->content = std::move(c);
    reply->prompt_tokens = prompt_tokens;
    reply->completion_tokens = completion_tokens;
    reply->set = true;
    return GRAPPI_OK;
  });
}

grappi_status grappi_chat_reply_set_error(grappi_chat_reply *reply, const char *message) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_chat_reply_set_error";
    require(reply != nullptr, fn, "reply is NULL");
    reply->error = text(message, fn, "message");
    return GRAPPI_OK;
  });
}

}  // extern "C"
