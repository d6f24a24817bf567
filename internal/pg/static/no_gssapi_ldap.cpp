// Link-time stand-ins for the GSSAPI (MIT Kerberos) and OpenLDAP functions that Debian's libpq.a
// refers to. Debian 12 ships no static Kerberos libraries (libkrb5-dev has only .so files), and
// its static libldap.a needs libsasl2.a (which needs GSSAPI and Berkeley DB again) and GnuTLS
// (which needs p11-kit, also shipped without a .a), so a statically linked libpq cannot have the
// real ones. Linked only into static libpq builds (cmake/Dependencies.cmake), never beside a
// shared libpq, whose own GSSAPI would be shadowed.
//
// Every GSSAPI call and every LDAP call fails, so libpq:
//  - skips GSSAPI transport encryption under the default gssencmode=prefer (it finds no
//    credential cache), and with gssencmode=require fails with "GSSAPI encryption required but
//    was impossible";
//  - fails against a server that demands Kerberos (gss) authentication, with a GSSAPI error
//    whose text says this build has no GSSAPI;
//  - fails an LDAP service lookup (ldap:// lines in pg_service.conf) with "could not create LDAP
//    structure".
// Password (SCRAM, md5), trust and peer authentication and TLS (OpenSSL, linked statically) work
// as usual.
//
// The prototypes follow RFC 2744 (GSSAPI C bindings) and OpenLDAP's ldap.h, with opaque pointers
// in place of the library types; only the symbol names matter to the linker.

#include <cstddef>
#include <cstdint>

namespace {

using OmUint32 = std::uint32_t;

// GSS_S_FAILURE: a routine error (13) in the GSSAPI major status layout.
constexpr OmUint32 k_gss_failure = 13U << 16U;
constexpr int k_ldap_other = 0x50; // LDAP_OTHER

struct GssBuffer {
  std::size_t length;
  void* value;
};

constexpr char k_gss_message[] = "GSSAPI (Kerberos) is not supported by this statically linked mailroom";

OmUint32 gss_fail(OmUint32* minor_status)
{
  if (minor_status != nullptr) {
    *minor_status = 0;
  }
  return k_gss_failure;
}

} // namespace

extern "C" {

// gss_OID GSS_C_NT_HOSTBASED_SERVICE: libpq only passes it back to gss_import_name.
extern void* const GSS_C_NT_HOSTBASED_SERVICE;
void* const GSS_C_NT_HOSTBASED_SERVICE = nullptr;

OmUint32 gss_acquire_cred(OmUint32* minor_status, void* /*desired_name*/, OmUint32 /*time_req*/,
                          void* /*desired_mechs*/, int /*cred_usage*/, void** output_cred_handle,
                          void** actual_mechs, OmUint32* time_rec)
{
  if (output_cred_handle != nullptr) {
    *output_cred_handle = nullptr;
  }
  if (actual_mechs != nullptr) {
    *actual_mechs = nullptr;
  }
  if (time_rec != nullptr) {
    *time_rec = 0;
  }
  return gss_fail(minor_status);
}

OmUint32 gss_import_name(OmUint32* minor_status, void* /*input_name_buffer*/, void* /*input_name_type*/,
                         void** output_name)
{
  if (output_name != nullptr) {
    *output_name = nullptr;
  }
  return gss_fail(minor_status);
}

OmUint32 gss_init_sec_context(OmUint32* minor_status, void* /*cred*/, void** /*context*/, void* /*target*/,
                              void* /*mech_type*/, OmUint32 /*req_flags*/, OmUint32 /*time_req*/,
                              void* /*bindings*/, void* /*input_token*/, void** actual_mech_type,
                              GssBuffer* output_token, OmUint32* ret_flags, OmUint32* time_rec)
{
  if (actual_mech_type != nullptr) {
    *actual_mech_type = nullptr;
  }
  if (output_token != nullptr) {
    *output_token = GssBuffer{0, nullptr};
  }
  if (ret_flags != nullptr) {
    *ret_flags = 0;
  }
  if (time_rec != nullptr) {
    *time_rec = 0;
  }
  return gss_fail(minor_status);
}

// libpq prints the status text and then releases it with gss_release_buffer, which here frees
// nothing: the text is a constant.
OmUint32 gss_display_status(OmUint32* minor_status, OmUint32 /*status_value*/, int /*status_type*/,
                            void* /*mech_type*/, OmUint32* message_context, GssBuffer* status_string)
{
  if (minor_status != nullptr) {
    *minor_status = 0;
  }
  if (message_context != nullptr) {
    *message_context = 0;
  }
  if (status_string != nullptr) {
    *status_string = GssBuffer{sizeof k_gss_message - 1, const_cast<char*>(k_gss_message)};
  }
  return 0;
}

OmUint32 gss_release_buffer(OmUint32* minor_status, GssBuffer* buffer)
{
  if (minor_status != nullptr) {
    *minor_status = 0;
  }
  if (buffer != nullptr) {
    *buffer = GssBuffer{0, nullptr};
  }
  return 0;
}

OmUint32 gss_release_cred(OmUint32* minor_status, void** cred_handle)
{
  if (cred_handle != nullptr) {
    *cred_handle = nullptr;
  }
  return gss_fail(minor_status) & 0U;
}

OmUint32 gss_release_name(OmUint32* minor_status, void** name)
{
  if (name != nullptr) {
    *name = nullptr;
  }
  return gss_fail(minor_status) & 0U;
}

OmUint32 gss_delete_sec_context(OmUint32* minor_status, void** context, GssBuffer* output_token)
{
  if (context != nullptr) {
    *context = nullptr;
  }
  if (output_token != nullptr) {
    *output_token = GssBuffer{0, nullptr};
  }
  return gss_fail(minor_status) & 0U;
}

OmUint32 gss_wrap(OmUint32* minor_status, void* /*context*/, int /*conf_req*/, OmUint32 /*qop*/,
                  GssBuffer* /*input*/, int* /*conf_state*/, GssBuffer* output)
{
  if (output != nullptr) {
    *output = GssBuffer{0, nullptr};
  }
  return gss_fail(minor_status);
}

OmUint32 gss_unwrap(OmUint32* minor_status, void* /*context*/, GssBuffer* /*input*/, GssBuffer* output,
                    int* /*conf_state*/, OmUint32* /*qop_state*/)
{
  if (output != nullptr) {
    *output = GssBuffer{0, nullptr};
  }
  return gss_fail(minor_status);
}

OmUint32 gss_wrap_size_limit(OmUint32* minor_status, void* /*context*/, int /*conf_req*/, OmUint32 /*qop*/,
                             OmUint32 /*req_output_size*/, OmUint32* max_input_size)
{
  if (max_input_size != nullptr) {
    *max_input_size = 0;
  }
  return gss_fail(minor_status);
}

void* ldap_init(const char* /*host*/, int /*port*/)
{
  return nullptr;
}

int ldap_set_option(void* /*ld*/, int /*option*/, const void* /*value*/)
{
  return -1;
}

int ldap_simple_bind(void* /*ld*/, const char* /*who*/, const char* /*password*/)
{
  return -1;
}

int ldap_result(void* /*ld*/, int /*msgid*/, int /*all*/, void* /*timeout*/, void** result)
{
  if (result != nullptr) {
    *result = nullptr;
  }
  return -1;
}

int ldap_search_st(void* /*ld*/, const char* /*base*/, int /*scope*/, const char* /*filter*/,
                   char** /*attrs*/, int /*attrsonly*/, void* /*timeout*/, void** result)
{
  if (result != nullptr) {
    *result = nullptr;
  }
  return k_ldap_other;
}

int ldap_count_entries(void* /*ld*/, void* /*chain*/)
{
  return -1;
}

void* ldap_first_entry(void* /*ld*/, void* /*chain*/)
{
  return nullptr;
}

void** ldap_get_values_len(void* /*ld*/, void* /*entry*/, const char* /*attr*/)
{
  return nullptr;
}

void ldap_value_free_len(void** /*values*/) {}

int ldap_msgfree(void* /*message*/)
{
  return 0;
}

int ldap_unbind(void* /*ld*/)
{
  return 0;
}

char* ldap_err2string(int /*error*/)
{
  static char message[] = "LDAP is not supported by this statically linked mailroom";
  return message;
}

} // extern "C"
