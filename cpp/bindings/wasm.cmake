# The three WebAssembly modules (included by CMakeLists.txt under emcmake):
#   web/wasm/attention-simd.{js,wasm}     core with ATTNLAB_SIMD=1, -msimd128 (xsimd's wasm backend)
#   web/wasm/attention-relaxed.{js,wasm}  the same plus ATTNLAB_RELAXED_SIMD=1, -mrelaxed-simd: the
#                                         kernels' multiply-adds are f32x4.relaxed_madd (kernels_vec.hpp)
#   web/wasm/attention-scalar.{js,wasm}   core with ATTNLAB_SIMD=0, plain loops, no SIMD opcodes
# Each is linked under its final name: the name is baked into the glue (docs/toolchain.md).

# Emscripten 3.1.6's link step runs acorn from Node; Debian ships it in /usr/share/nodejs.
set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs")

file(GLOB ATTNLAB_BINDING_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.cpp")
set(ATTNLAB_WASM_DIR "${CMAKE_SOURCE_DIR}/web/wasm")

set(ATTNLAB_WASM_LINK_OPTIONS
  -O3 --bind -fno-exceptions
  -sMODULARIZE=1 -sEXPORT_ES6=1
  # Node is handled by web/src/boundary/loader.js (it passes wasmBinary): 3.1.6's node glue breaks under ESM.
  -sENVIRONMENT=web,worker
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  # malloc returns 0 instead of aborting, so the JS API can raise a RangeError and carry on.
  # emmalloc, not dlmalloc: the arena makes a few large blocks per call, where the two are as fast,
  # and emmalloc is the smaller (docs/performance.md).
  -sABORTING_MALLOC=0 -sMALLOC=emmalloc
  -sEXPORTED_FUNCTIONS=_malloc,_free
  # The JS arena restores the C stack pointer after a RangeError thrown from inside wasm.
  -sEXPORTED_RUNTIME_METHODS=stackSave,stackRestore
  -sFILESYSTEM=0)

# Code size: the kernels and the loops around them are built for speed (-O3); the binding (argument
# checks, once per call) and layer.cpp (projections through the gemm kernels, heads rearranged by
# memcpy) for size (-Os, which wins over the target's -O3 as the later flag); every kernel's
# function body is unchanged. Not -Oz (hardly smaller, slower calls); not sdpa.cpp or softmax.cpp
# (at -Os they change the fused loops that the linker inlines into them). Sizes: docs/performance.md.
set(ATTNLAB_WASM_SIZE_SOURCES ${ATTNLAB_BINDING_SOURCES} "${CMAKE_SOURCE_DIR}/cpp/src/layer.cpp")
set_source_files_properties(${ATTNLAB_WASM_SIZE_SOURCES} PROPERTIES COMPILE_OPTIONS -Os)

# variant: simd | relaxed | scalar; export_name: the factory's name in the glue.
function(attnlab_wasm_module variant simd export_name)
  attnlab_core(attnlab_${variant} ${simd})
  set(isa_flags "")
  if(variant STREQUAL "relaxed")
    set(isa_flags -msimd128 -mrelaxed-simd)
    target_compile_definitions(attnlab_${variant} PUBLIC ATTNLAB_RELAXED_SIMD=1)
  elseif(simd)
    set(isa_flags -msimd128)
  endif()
  target_compile_options(attnlab_${variant} PRIVATE -O3 -fno-exceptions ${isa_flags})

  add_executable(attention_${variant} ${ATTNLAB_BINDING_SOURCES})
  target_compile_options(attention_${variant} PRIVATE -O3 -fno-exceptions -Wall -Wextra ${isa_flags})
  target_link_libraries(attention_${variant} PRIVATE attnlab_${variant})
  target_link_options(attention_${variant} PRIVATE ${ATTNLAB_WASM_LINK_OPTIONS} ${isa_flags}
                      -sEXPORT_NAME=${export_name})
  set_target_properties(attention_${variant} PROPERTIES
    OUTPUT_NAME "attention-${variant}"
    SUFFIX ".js"
    RUNTIME_OUTPUT_DIRECTORY "${ATTNLAB_WASM_DIR}")
  if(variant STREQUAL "relaxed")
    # LLVM 14 writes relaxed_madd with its pre-standard opcode, which no engine accepts: rewritten
    # in place after every link, by walking the code section (tools/wasm/relaxed-opcodes.mjs).
    add_custom_command(TARGET attention_${variant} POST_BUILD
      COMMAND node "${CMAKE_SOURCE_DIR}/tools/wasm/relaxed-opcodes.mjs" "${ATTNLAB_WASM_DIR}/attention-${variant}.wasm"
      VERBATIM)
  endif()
endfunction()

attnlab_wasm_module(simd 1 createAttentionSimd)
attnlab_wasm_module(relaxed 1 createAttentionRelaxed)
attnlab_wasm_module(scalar 0 createAttentionScalar)
