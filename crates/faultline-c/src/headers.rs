//! The built-in standard headers. They define only macros and typedefs: the
//! library functions themselves are recognized by name when called (see
//! `lower::builtins`), whether or not their header was included.

/// The text of the built-in header `<name>`, if there is one.
pub fn builtin_header(name: &str) -> Option<&'static str> {
    Some(match name {
        "stddef.h" => STDDEF,
        "stdio.h" => STDIO,
        "stdlib.h" => STDLIB,
        "string.h" | "strings.h" => STRING,
        "math.h" => MATH,
        "ctype.h" => "",
        "assert.h" => ASSERT,
        "stdbool.h" => STDBOOL,
        "limits.h" => LIMITS,
        "float.h" => FLOAT,
        "stdint.h" => STDINT,
        "inttypes.h" => INTTYPES,
        "iso646.h" => ISO646,
        _ => return None,
    })
}

const STDDEF: &str = "#ifndef __FAULTLINE_STDDEF_H
#define __FAULTLINE_STDDEF_H
#define NULL ((void*)0)
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef int wchar_t;
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
";

const STDIO: &str = "#ifndef __FAULTLINE_STDIO_H
#define __FAULTLINE_STDIO_H
#include <stddef.h>
typedef __faultline_FILE FILE;
#define EOF (-1)
#define BUFSIZ 8192
#endif
";

const STDLIB: &str = "#ifndef __FAULTLINE_STDLIB_H
#define __FAULTLINE_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#endif
";

const STRING: &str = "#include <stddef.h>
";

const MATH: &str = "#ifndef __FAULTLINE_MATH_H
#define __FAULTLINE_MATH_H
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define HUGE_VAL (1e308 * 10.0)
#define INFINITY ((float)(1e308 * 10.0))
#define NAN ((float)(0.0 / 0.0))
#endif
";

const ASSERT: &str = "#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#endif
";

const STDBOOL: &str = "#ifndef __FAULTLINE_STDBOOL_H
#define __FAULTLINE_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
";

const LIMITS: &str = "#ifndef __FAULTLINE_LIMITS_H
#define __FAULTLINE_LIMITS_H
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN (-128)
#define CHAR_MAX 127
#define MB_LEN_MAX 16
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1L)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1LL)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif
";

const FLOAT: &str = "#ifndef __FAULTLINE_FLOAT_H
#define __FAULTLINE_FLOAT_H
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MAX 3.40282346638528859811704183484516925e+38F
#define FLT_MIN 1.17549435082228750796873653722224568e-38F
#define FLT_EPSILON 1.19209289550781250000000000000000000e-7F
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#endif
";

const STDINT: &str = "#ifndef __FAULTLINE_STDINT_H
#define __FAULTLINE_STDINT_H
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef signed char int_least8_t;
typedef short int_least16_t;
typedef int int_least32_t;
typedef long int_least64_t;
typedef unsigned char uint_least8_t;
typedef unsigned short uint_least16_t;
typedef unsigned int uint_least32_t;
typedef unsigned long uint_least64_t;
typedef signed char int_fast8_t;
typedef long int_fast16_t;
typedef long int_fast32_t;
typedef long int_fast64_t;
typedef unsigned char uint_fast8_t;
typedef unsigned long uint_fast16_t;
typedef unsigned long uint_fast32_t;
typedef unsigned long uint_fast64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef long intmax_t;
typedef unsigned long uintmax_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define SIZE_MAX 18446744073709551615UL
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define INT64_C(c) c ## L
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c ## U
#define UINT64_C(c) c ## UL
#define INTMAX_C(c) c ## L
#define UINTMAX_C(c) c ## UL
#endif
";

const INTTYPES: &str = "#ifndef __FAULTLINE_INTTYPES_H
#define __FAULTLINE_INTTYPES_H
#include <stdint.h>
#define PRId8 \"d\"
#define PRId16 \"d\"
#define PRId32 \"d\"
#define PRId64 \"ld\"
#define PRIi8 \"i\"
#define PRIi16 \"i\"
#define PRIi32 \"i\"
#define PRIi64 \"li\"
#define PRIu8 \"u\"
#define PRIu16 \"u\"
#define PRIu32 \"u\"
#define PRIu64 \"lu\"
#define PRIx8 \"x\"
#define PRIx16 \"x\"
#define PRIx32 \"x\"
#define PRIx64 \"lx\"
#define PRIX32 \"X\"
#define PRIX64 \"lX\"
#define SCNd8 \"hhd\"
#define SCNd16 \"hd\"
#define SCNd32 \"d\"
#define SCNd64 \"ld\"
#define SCNu32 \"u\"
#define SCNu64 \"lu\"
#endif
";

const ISO646: &str = "#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=
";
