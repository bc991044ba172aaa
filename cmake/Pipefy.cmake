# Pipefy.cmake: software-pipeline a target's CUDA sources as a pre-build step.
#
#   include(Pipefy)                      # with this folder on CMAKE_MODULE_PATH
#   add_executable(gemm main.cu kernels.cu)
#   pipefy_sources(gemm kernels.cu [ARGS --variant=cp.async ...])
#
# Each listed source is rewritten into ${CMAKE_CURRENT_BINARY_DIR}/pipefy/<name> and compiled
# in its place. The rewrite runs again when the source, a header it includes (through pipefy's
# -MF depfile) or pipefy itself changes. pipefy parses with the target's include folders and
# definitions, and plans for the first of CMAKE_CUDA_ARCHITECTURES unless ARGS says --arch.
# The original's folder stays on the include path so its quoted includes still resolve.
# PIPEFY_EXECUTABLE may name the binary; otherwise it is looked up on PATH.

if(NOT PIPEFY_EXECUTABLE)
  find_program(PIPEFY_EXECUTABLE pipefy REQUIRED)
endif()

function(pipefy_sources target)
  cmake_parse_arguments(PIPEFY "" "" "ARGS" ${ARGN})
  set(arch_arg "")
  if(NOT "${PIPEFY_ARGS}" MATCHES "--arch")
    set(archs ${CMAKE_CUDA_ARCHITECTURES})
    list(GET archs 0 first_arch)
    string(REGEX MATCH "^[0-9]+" first_arch "${first_arch}")
    if(first_arch)
      set(arch_arg "--arch=sm_${first_arch}")
    endif()
  endif()
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/pipefy")
  foreach(source ${PIPEFY_UNPARSED_ARGUMENTS})
    get_filename_component(input "${source}" ABSOLUTE)
    get_filename_component(name "${source}" NAME)
    get_filename_component(input_dir "${input}" DIRECTORY)
    set(output "${CMAKE_CURRENT_BINARY_DIR}/pipefy/${name}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${PIPEFY_EXECUTABLE}" -q ${arch_arg} ${PIPEFY_ARGS} "${input}" -o "${output}"
              -MF "${output}.d" --
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
      DEPENDS "${input}" "${PIPEFY_EXECUTABLE}"
      DEPFILE "${output}.d"
      COMMAND_EXPAND_LISTS
      COMMENT "pipefy ${source}"
      VERBATIM)
    get_target_property(sources ${target} SOURCES)
    list(TRANSFORM sources REPLACE "^${source}$" "${output}")
    list(TRANSFORM sources REPLACE "^${input}$" "${output}")
    set_property(TARGET ${target} PROPERTY SOURCES ${sources})
    target_include_directories(${target} PRIVATE "${input_dir}")
  endforeach()
endfunction()
