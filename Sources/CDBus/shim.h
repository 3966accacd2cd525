#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H

/* libdbus's constants are preprocessor macros (some with casts or string
 * concatenation) that the Swift importer skips. Each one is re-exported here as
 * a typed constant with the CDBUS_ prefix so Swift code never spells a raw
 * number. */

#include <dbus/dbus.h>

/* Type codes (D-Bus specification, "Type System"). */
static const int CDBUS_TYPE_INVALID = DBUS_TYPE_INVALID;
static const int CDBUS_TYPE_BYTE = DBUS_TYPE_BYTE;
static const int CDBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int CDBUS_TYPE_INT16 = DBUS_TYPE_INT16;
static const int CDBUS_TYPE_UINT16 = DBUS_TYPE_UINT16;
static const int CDBUS_TYPE_INT32 = DBUS_TYPE_INT32;
static const int CDBUS_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int CDBUS_TYPE_INT64 = DBUS_TYPE_INT64;
static const int CDBUS_TYPE_UINT64 = DBUS_TYPE_UINT64;
static const int CDBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE;
static const int CDBUS_TYPE_STRING = DBUS_TYPE_STRING;
static const int CDBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int CDBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int CDBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD;
static const int CDBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int CDBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int CDBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT;
static const int CDBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;

/* Limits (D-Bus specification, "Valid Signatures", "Valid Names"). */
static const int CDBUS_MAXIMUM_NAME_LENGTH = DBUS_MAXIMUM_NAME_LENGTH;
static const int CDBUS_MAXIMUM_SIGNATURE_LENGTH = DBUS_MAXIMUM_SIGNATURE_LENGTH;
static const int CDBUS_MAXIMUM_TYPE_RECURSION_DEPTH = DBUS_MAXIMUM_TYPE_RECURSION_DEPTH;

/* Message types. */
static const int CDBUS_MESSAGE_TYPE_INVALID = DBUS_MESSAGE_TYPE_INVALID;
static const int CDBUS_MESSAGE_TYPE_METHOD_CALL = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int CDBUS_MESSAGE_TYPE_METHOD_RETURN = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int CDBUS_MESSAGE_TYPE_ERROR = DBUS_MESSAGE_TYPE_ERROR;
static const int CDBUS_MESSAGE_TYPE_SIGNAL = DBUS_MESSAGE_TYPE_SIGNAL;

/* RequestName flags and replies, ReleaseName replies. */
static const unsigned int CDBUS_NAME_FLAG_ALLOW_REPLACEMENT = DBUS_NAME_FLAG_ALLOW_REPLACEMENT;
static const unsigned int CDBUS_NAME_FLAG_REPLACE_EXISTING = DBUS_NAME_FLAG_REPLACE_EXISTING;
static const unsigned int CDBUS_NAME_FLAG_DO_NOT_QUEUE = DBUS_NAME_FLAG_DO_NOT_QUEUE;
static const int CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER = DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;
static const int CDBUS_REQUEST_NAME_REPLY_IN_QUEUE = DBUS_REQUEST_NAME_REPLY_IN_QUEUE;
static const int CDBUS_REQUEST_NAME_REPLY_EXISTS = DBUS_REQUEST_NAME_REPLY_EXISTS;
static const int CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER = DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER;
static const int CDBUS_RELEASE_NAME_REPLY_RELEASED = DBUS_RELEASE_NAME_REPLY_RELEASED;
static const int CDBUS_RELEASE_NAME_REPLY_NON_EXISTENT = DBUS_RELEASE_NAME_REPLY_NON_EXISTENT;
static const int CDBUS_RELEASE_NAME_REPLY_NOT_OWNER = DBUS_RELEASE_NAME_REPLY_NOT_OWNER;

/* Watch flags (enum DBusWatchFlags). */
static const unsigned int CDBUS_WATCH_READABLE = DBUS_WATCH_READABLE;
static const unsigned int CDBUS_WATCH_WRITABLE = DBUS_WATCH_WRITABLE;
static const unsigned int CDBUS_WATCH_ERROR = DBUS_WATCH_ERROR;
static const unsigned int CDBUS_WATCH_HANGUP = DBUS_WATCH_HANGUP;

/* Handler results and dispatch status (enums, re-exported as plain ints). */
static const int CDBUS_HANDLER_RESULT_HANDLED = DBUS_HANDLER_RESULT_HANDLED;
static const int CDBUS_HANDLER_RESULT_NOT_YET_HANDLED = DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
static const int CDBUS_HANDLER_RESULT_NEED_MEMORY = DBUS_HANDLER_RESULT_NEED_MEMORY;
static const int CDBUS_DISPATCH_DATA_REMAINS = DBUS_DISPATCH_DATA_REMAINS;
static const int CDBUS_DISPATCH_COMPLETE = DBUS_DISPATCH_COMPLETE;
static const int CDBUS_DISPATCH_NEED_MEMORY = DBUS_DISPATCH_NEED_MEMORY;

/* Timeouts for send_with_reply_and_block. */
static const int CDBUS_TIMEOUT_INFINITE = DBUS_TIMEOUT_INFINITE;
static const int CDBUS_TIMEOUT_USE_DEFAULT = DBUS_TIMEOUT_USE_DEFAULT;

/* Well-known bus coordinates (string macros). */
static const char *const CDBUS_SERVICE_DBUS = DBUS_SERVICE_DBUS;
static const char *const CDBUS_PATH_DBUS = DBUS_PATH_DBUS;
static const char *const CDBUS_INTERFACE_DBUS = DBUS_INTERFACE_DBUS;
static const char *const CDBUS_PATH_LOCAL = DBUS_PATH_LOCAL;
static const char *const CDBUS_INTERFACE_LOCAL = DBUS_INTERFACE_LOCAL;

#endif
