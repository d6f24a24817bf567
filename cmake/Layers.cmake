# The layer graph (cmake/layers.txt, written once) as CMake: mailroom_layer(<name>) builds one
# layer's static library from its folder's *.cpp (tests excluded) and links it to exactly the
# layers its line names, so an include that points the wrong way fails to link; the CTest test
# `layering` (scripts/check-layering.sh) reads the same file and checks every #include.
# MAILROOM_LAYER_<name>_ON tells whether a layer is built (its [OPTION], if any, is ON).

file(STRINGS ${PROJECT_SOURCE_DIR}/cmake/layers.txt mailroom_layer_lines)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/layers.txt)
foreach(line IN LISTS mailroom_layer_lines)
  string(STRIP "${line}" line)
  if(line STREQUAL "" OR line MATCHES "^#")
    continue()
  endif()
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(POP_FRONT fields name folder)
  set(deps "")
  set(on ON)
  foreach(field IN LISTS fields)
    if(field MATCHES "^\\[([A-Z_]+)\\]$")
      if(NOT ${CMAKE_MATCH_1})
        set(on OFF)
      endif()
    else()
      list(APPEND deps ${field})
    endif()
  endforeach()
  set(MAILROOM_LAYER_${name}_FOLDER ${folder})
  set(MAILROOM_LAYER_${name}_DEPS ${deps})
  set(MAILROOM_LAYER_${name}_ON ${on})
endforeach()

# mailroom_layer(<name> [INCLUDE_DIR dir] [EXCLUDE regex] [PUBLIC_LIBS ...] [PRIVATE_LIBS ...]):
# nothing when the layer is off. The include directory (default: the folder's parent, so headers
# are reached as "<name>/x.hpp") is public.
function(mailroom_layer name)
  cmake_parse_arguments(ARG "" "INCLUDE_DIR;EXCLUDE" "PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  if(NOT DEFINED MAILROOM_LAYER_${name}_FOLDER)
    message(FATAL_ERROR "layer ${name} has no line in cmake/layers.txt")
  endif()
  if(NOT MAILROOM_LAYER_${name}_ON)
    return()
  endif()
  set(dir ${PROJECT_SOURCE_DIR}/${MAILROOM_LAYER_${name}_FOLDER})
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  list(FILTER sources EXCLUDE REGEX "_test\\.cpp$")
  if(ARG_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${ARG_EXCLUDE}")
  endif()
  add_library(mailroom_${name} STATIC ${sources})
  if(NOT ARG_INCLUDE_DIR)
    get_filename_component(ARG_INCLUDE_DIR ${dir} DIRECTORY)
  endif()
  target_include_directories(mailroom_${name} PUBLIC ${ARG_INCLUDE_DIR})
  set(deps "")
  foreach(dep IN LISTS MAILROOM_LAYER_${name}_DEPS)
    if(MAILROOM_LAYER_${dep}_ON)
      list(APPEND deps mailroom_${dep})
    endif()
  endforeach()
  target_link_libraries(mailroom_${name}
    PUBLIC ${deps} ${ARG_PUBLIC_LIBS}
    PRIVATE mailroom_settings mailroom_warnings ${ARG_PRIVATE_LIBS})
endfunction()
